//===- Types.cpp - ttg types ----------------------------------------------===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::ttg;

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/TritonGPU/IR/Types.cpp.inc"

void TritonGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "kiln/Dialect/TritonGPU/IR/Types.cpp.inc"
      >();
}

namespace {
constexpr StringLiteral kMutable = "mutable";
} // namespace

// `<shape x T, #encoding, #memory-space[, mutable][, alloc-shape]>`, as
// Triton 3.6 writes it; the alloc shape has no trailing `x`.
Type MemDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding, memorySpace;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseComma() ||
      parser.parseAttribute(memorySpace))
    return {};
  bool mutableMemory = false;
  SmallVector<int64_t> allocShape;
  if (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword(kMutable))) {
      mutableMemory = true;
      if (succeeded(parser.parseOptionalComma()) &&
          parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                    /*withTrailingX=*/false))
        return {};
    } else if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                         /*withTrailingX=*/false)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape,
                    elementType, encoding, memorySpace, mutableMemory, allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ", " << getMemorySpace();
  if (getMutableMemory())
    printer << ", " << kMutable;
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, Attribute memorySpace,
                                  bool mutableMemory, ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "memdesc must have rank 1 or more";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "memdesc dimensions must be positive";
  if (!isa<IntegerType, FloatType>(elementType))
    return emitError() << "memdesc element type must be an integer or float type, got "
                       << elementType;
  auto shared = dyn_cast_or_null<SharedEncodingInterface>(encoding);
  if (!shared)
    return emitError() << "memdesc encoding must be a shared-memory encoding, got "
                       << encoding;
  if (shared.getRank() > shape.size())
    return emitError() << "the memdesc encoding has rank " << shared.getRank()
                       << " but the memdesc only " << shape.size();
  if (!isa_and_nonnull<MemorySpaceInterface>(memorySpace))
    return emitError() << "memdesc memory space must be #ttg.shared_memory (or a back end's "
                          "shared memory space), got "
                       << memorySpace;
  // The view lies in the trailing dimensions of its allocation.
  if (allocShape.size() < shape.size())
    return emitError() << "memdesc alloc shape must have at least the rank of its shape";
  ArrayRef<int64_t> trailing = allocShape.take_back(shape.size());
  for (auto [d, alloc] : llvm::zip(shape, trailing))
    if (d > alloc)
      return emitError() << "memdesc shape must fit in its alloc shape";
  return success();
}

ShapedType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                  Type elementType) const {
  ArrayRef<int64_t> newShape = shape.value_or(getShape());
  return MemDescType::get(getContext(), newShape, elementType, getEncoding(),
                          getMemorySpace(), getMutableMemory(),
                          shape ? newShape : getAllocShape());
}

// Without a parser of its own, trailing `<...>` would be silently ignored.
Type AsyncTokenType::parse(AsmParser &parser) {
  if (succeeded(parser.parseOptionalLess())) {
    parser.emitError(parser.getCurrentLocation(), "!ttg.async.token takes no parameters");
    return {};
  }
  return get(parser.getContext());
}

void AsyncTokenType::print(AsmPrinter &) const {}
