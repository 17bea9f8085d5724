//===- Types.cpp - tt dialect types ---------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tt;

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/Triton/IR/Types.cpp.inc"

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "kiln/Dialect/Triton/IR/Types.cpp.inc"
      >();
}

// `!tt.ptr<T>` or `!tt.ptr<T, addrspace>`; the address space is printed
// only when it is not global (1), as Triton does.
Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = kGlobalAddressSpace;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(addressSpace))
    return {};
  if (parser.parseGreater())
    return {};
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

// `!tt.tensordesc<tensor<128x64xf16>>` (Triton 3.6) or the shorthand of
// 3.8 and later, `!tt.tensordesc<128x64xf16>` (`<64x64xf16, #shared>` with
// a layout). Printed in the 3.6 form unless the context parsed only the
// shorthand (TritonDialect::printsNewer).
Type TensorDescType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  Type block;
  OptionalParseResult full = parser.parseOptionalType(block);
  auto &dialect = static_cast<TritonDialect &>(*parser.getContext()->getLoadedDialect(
      TritonDialect::getDialectNamespace()));
  dialect.noteParsed(TritonDialect::Spelling::DescriptorType, !full.has_value());
  if (full.has_value()) {
    if (failed(*full))
      return {};
  } else {
    SmallVector<int64_t> shape;
    Type element;
    Attribute encoding;
    if (parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
        parser.parseType(element))
      return {};
    if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(encoding))
      return {};
    block = RankedTensorType::get(shape, element, encoding);
  }
  if (parser.parseGreater())
    return {};
  auto ranked = dyn_cast<RankedTensorType>(block);
  if (!ranked) {
    parser.emitError(parser.getNameLoc(),
                     "tensordesc block type must be a ranked tensor, got ")
        << block;
    return {};
  }
  return TensorDescType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                                    parser.getContext(), ranked);
}

LogicalResult TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     RankedTensorType blockType) {
  if (!blockType.hasStaticShape())
    return emitError() << "tensordesc block type must have a static shape, got "
                       << blockType;
  return success();
}

void TensorDescType::print(AsmPrinter &printer) const {
  auto &dialect = static_cast<TritonDialect &>(getDialect());
  RankedTensorType block = getBlockType();
  if (!dialect.printsNewer(TritonDialect::Spelling::DescriptorType)) {
    printer << "<" << block << ">";
    return;
  }
  printer << "<";
  for (int64_t d : block.getShape())
    printer << d << "x";
  printer << block.getElementType();
  if (block.getEncoding())
    printer << ", " << block.getEncoding();
  printer << ">";
}

RankedTensorType TensorDescType::getSignlessBlockType() const {
  RankedTensorType block = getBlockType();
  auto integer = dyn_cast<IntegerType>(block.getElementType());
  if (!integer || integer.isSignless())
    return block;
  return block.clone(IntegerType::get(getContext(), integer.getWidth()));
}

namespace kiln::tt {

bool isTensorPointerType(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  return ptr && isa<RankedTensorType>(ptr.getPointeeType());
}

Type getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto ptr = dyn_cast<PointerType>(tensor.getElementType());
    if (!ptr)
      return {};
    return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                 tensor.getEncoding());
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return {};
}

Type getI1SameShape(Type type) {
  if (!type)
    return {};
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

Type getPointerTypeSameShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(
        tensor.getShape(), PointerType::get(tensor.getElementType(), kGlobalAddressSpace),
        tensor.getEncoding());
  return PointerType::get(type, kGlobalAddressSpace);
}

Type getBasePointerOfTensorPointer(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  if (!ptr)
    return {};
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  if (!block)
    return {};
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}

} // namespace kiln::tt
