//===- KernelBuilder.cpp - building TTIR kernels from C++ -----------------===//
//
// Every public method follows the header's error convention: check the
// operands (usable), check what the op's own verifier would not explain
// well, build, then verify the new op (checked) so that anything left over
// is still reported at the op's location instead of crashing later.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/KernelBuilder.h"

#include "KernelBuilderSupport.h"

#include "kiln/Frontend/Passes.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
namespace json = llvm::json;

namespace kiln {

using namespace kiln::detail;

//===----------------------------------------------------------------------===//
// Construction and state
//===----------------------------------------------------------------------===//

std::unique_ptr<MLIRContext> KernelBuilder::createContext() {
  DialectRegistry registry;
  registerKilnAndPluginDialects(registry);
  return std::make_unique<MLIRContext>(registry);
}

KernelBuilder::KernelBuilder(StringRef name)
    : ownedContext(createContext()), ctx(ownedContext.get()), b(ctx),
      currentLoc(UnknownLoc::get(ctx)) {
  init(name);
}

KernelBuilder::KernelBuilder(MLIRContext &context, StringRef name)
    : ctx(&context), b(ctx), currentLoc(UnknownLoc::get(ctx)) {
  // A caller's context may lack the plugins' dialects; give it the registry
  // so that a plugin op can create them.
  DialectRegistry registry;
  registerKilnAndPluginDialects(registry);
  ctx->appendDialectRegistry(registry);
  init(name);
}

KernelBuilder::KernelBuilder(tt::FuncOp function, Operation *before)
    : ctx(function->getContext()), b(before), currentLoc(before->getLoc()), func(function) {}

KernelBuilder::~KernelBuilder() = default;

void KernelBuilder::init(StringRef name) {
  ctx->loadDialect<tt::TritonDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect>();
  module = ModuleOp::create(currentLoc);
  b.setInsertionPointToEnd(module->getBody());
  // Triton marks kernels `public` explicitly and records noinline = false;
  // doing the same keeps the output textually like Triton's.
  func =
      tt::FuncOp::create(b, currentLoc, name.empty() ? "kernel" : name, b.getFunctionType({}, {}),
                         {b.getNamedAttr("noinline", b.getBoolAttr(false))});
  func.setSymVisibilityAttr(b.getStringAttr("public"));
  b.setInsertionPointToStart(func.addEntryBlock());
  if (name.empty())
    emitError() << "a kernel needs a name";
}

InFlightDiagnostic KernelBuilder::emitError() {
  ++errors;
  return mlir::emitError(currentLoc);
}

Type KernelBuilder::elementType(Value value) {
  if (!value)
    return {};
  return getElementTypeOrSelf(value.getType());
}

ArrayRef<int64_t> KernelBuilder::shape(Value value) {
  if (auto tensor = value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr)
    return tensor.getShape();
  return {};
}

/// False if nothing may be built: the kernel is finished, or an operand is
/// null. A null operand is the trace of an earlier error, which already
/// has its diagnostic; only a null that no error explains gets one.
bool KernelBuilder::usable(ValueRange operands) {
  if (!func) {
    emitError() << "the kernel is already finished; build a new one";
    return false;
  }
  if (llvm::all_of(operands, [](Value v) { return static_cast<bool>(v); }))
    return true;
  if (errors == 0)
    emitError() << "null operand (not the result of a failed KernelBuilder call)";
  return false;
}

/// Verifies the op just built; an invalid op is erased so that it never
/// reaches the module, and its verifier's diagnostic stands as the error.
Operation *KernelBuilder::checked(Operation *op) {
  if (succeeded(mlir::verify(op)))
    return op;
  ++errors;
  op->erase();
  return nullptr;
}

Value KernelBuilder::checkedValue(Operation *op) {
  Operation *valid = checked(op);
  return valid ? valid->getResult(0) : Value();
}

/// Rejects shapes Triton rejects: block dimensions are powers of two.
static LogicalResult checkShape(KernelBuilder &kb, ArrayRef<int64_t> shape, StringRef what) {
  if (shape.empty())
    return kb.emitError() << what << ": a tensor shape needs at least one dimension";
  for (auto [i, d] : llvm::enumerate(shape))
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return kb.emitError() << what << ": dimension " << i << " of " << shapeText(shape) << " is "
                            << d << "; tensor dimensions must be powers of 2";
  return success();
}

//===----------------------------------------------------------------------===//
// Arguments and program ids
//===----------------------------------------------------------------------===//

Value KernelBuilder::argument(Type type, StringRef name, unsigned divisibility) {
  if (!usable({}))
    return {};
  if (divisibility > static_cast<unsigned>(INT32_MAX))
    return nullAfter(emitError() << "divisibility " << divisibility << " does not fit in i32");
  DictionaryAttr attrs;
  if (divisibility)
    attrs =
        b.getDictionaryAttr(b.getNamedAttr("tt.divisibility", b.getI32IntegerAttr(divisibility)));
  Location argLoc = currentLoc;
  if (!name.empty())
    argLoc = NameLoc::get(b.getStringAttr(name), currentLoc);
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, type, attrs, argLoc)))
    return nullAfter(emitError() << "cannot add argument '" << name << "' to the kernel");
  return func.getArgument(index);
}

Value KernelBuilder::pointerArg(Type elementType, StringRef name, unsigned divisibility) {
  if (!elementType || !isIntOrFloat(elementType))
    return nullAfter(emitError() << "pointer argument '" << name
                                 << "' must point to an integer or float type, got "
                                 << elementType);
  return argument(tt::PointerType::get(elementType, tt::kGlobalAddressSpace), name, divisibility);
}

Value KernelBuilder::scalarArg(Type type, StringRef name, unsigned divisibility) {
  if (!type || !isIntOrFloat(type))
    return nullAfter(emitError() << "scalar argument '" << name
                                 << "' must have an integer or float type, got " << type);
  // Divisibility describes integer values (sizes, strides); Triton never
  // puts it on a float.
  if (divisibility && !isa<IntegerType>(type))
    return nullAfter(emitError() << "scalar argument '" << name
                                 << "': divisibility applies to integers, not " << type);
  return argument(type, name, divisibility);
}

Value KernelBuilder::programId(int axis) {
  if (!usable({}))
    return {};
  std::optional<tt::ProgramIDDim> dim =
      axis >= 0 ? tt::symbolizeProgramIDDim(static_cast<uint32_t>(axis)) : std::nullopt;
  if (!dim)
    return nullAfter(emitError() << "program_id: grid axis must be 0, 1 or 2, got " << axis);
  return checkedValue(tt::GetProgramIdOp::create(b, currentLoc, *dim));
}

Value KernelBuilder::numPrograms(int axis) {
  if (!usable({}))
    return {};
  std::optional<tt::ProgramIDDim> dim =
      axis >= 0 ? tt::symbolizeProgramIDDim(static_cast<uint32_t>(axis)) : std::nullopt;
  if (!dim)
    return nullAfter(emitError() << "num_programs: grid axis must be 0, 1 or 2, got " << axis);
  return checkedValue(tt::GetNumProgramsOp::create(b, currentLoc, *dim));
}

//===----------------------------------------------------------------------===//
// Constants and ranges
//===----------------------------------------------------------------------===//

/// `value` as an attribute of integer or float type `type`, or null after a
/// diagnostic when it does not fit.
static TypedAttr scalarAttr(KernelBuilder &kb, double value, std::optional<int64_t> exact,
                            Type type) {
  OpBuilder &b = kb.builder();
  if (!type || !isIntOrFloat(type)) {
    kb.emitError() << "constants must have an integer or float type, got " << type;
    return nullptr;
  }
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (!exact) {
      if (value != std::trunc(value) || !(std::fabs(value) < 0x1p63)) {
        kb.emitError() << "constant " << numberText(value) << " is not an integer of type " << type;
        return nullptr;
      }
      exact = static_cast<int64_t>(value);
    }
    unsigned width = intType.getWidth();
    // Accept both readings of the bits: -1 and 255 are both a valid i8.
    if (width < 64 && (*exact < -(int64_t(1) << (width - 1)) ||
                       *exact > static_cast<int64_t>((uint64_t(1) << width) - 1))) {
      kb.emitError() << "constant " << *exact << " does not fit in " << type;
      return nullptr;
    }
    return IntegerAttr::get(type, APInt(64, *exact, /*isSigned=*/true).sextOrTrunc(width));
  }
  return b.getFloatAttr(type, exact ? static_cast<double>(*exact) : value);
}

Value KernelBuilder::constInt(int64_t value, Type type) {
  if (!usable({}))
    return {};
  if (!type)
    type = b.getI32Type();
  if (!isa<IntegerType>(type))
    return nullAfter(emitError() << "constInt needs an integer type, got " << type);
  TypedAttr attr = scalarAttr(*this, 0, value, type);
  if (!attr)
    return {};
  return checkedValue(arith::ConstantOp::create(b, currentLoc, attr));
}

Value KernelBuilder::constFloat(double value, Type type) {
  if (!usable({}))
    return {};
  if (!type)
    type = b.getF32Type();
  if (!isa<FloatType>(type))
    return nullAfter(emitError() << "constFloat needs a float type, got " << type);
  return checkedValue(arith::ConstantOp::create(b, currentLoc, b.getFloatAttr(type, value)));
}

Value KernelBuilder::full(ArrayRef<int64_t> shape, double value, Type elementType) {
  if (!usable({}) || failed(checkShape(*this, shape, "full")))
    return {};
  TypedAttr element = scalarAttr(*this, value, std::nullopt, elementType);
  if (!element)
    return {};
  auto type = RankedTensorType::get(shape, elementType);
  auto attr = DenseElementsAttr::get(type, ArrayRef<Attribute>(element));
  return checkedValue(arith::ConstantOp::create(b, currentLoc, attr));
}

Value KernelBuilder::arange(int32_t start, int32_t end) {
  if (!usable({}))
    return {};
  if (end <= start)
    return nullAfter(emitError() << "arange: end (" << end << ") must be greater than start ("
                                 << start << ")");
  int64_t size = int64_t(end) - start;
  if (!llvm::isPowerOf2_64(size))
    return nullAfter(emitError() << "arange: the range [" << start << ", " << end << ") has "
                                 << size << " elements; it must be a power of 2");
  auto type = RankedTensorType::get({size}, b.getI32Type());
  return checkedValue(tt::MakeRangeOp::create(b, currentLoc, type, b.getI32IntegerAttr(start),
                                              b.getI32IntegerAttr(end)));
}

Value KernelBuilder::zerosLike(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return full(tensor.getShape(), 0, element);
  if (isa<FloatType>(element))
    return constFloat(0, element);
  return constInt(0, element);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Value KernelBuilder::splat(Value scalar, ArrayRef<int64_t> shape) {
  if (!usable(scalar) || failed(checkShape(*this, shape, "splat")))
    return {};
  if (isa<RankedTensorType>(scalar.getType()))
    return nullAfter(emitError() << "splat takes a scalar, got " << scalar.getType()
                                 << " (use broadcastTo for tensors)");
  auto type = RankedTensorType::get(shape, scalar.getType());
  return checkedValue(tt::SplatOp::create(b, currentLoc, type, scalar));
}

Value KernelBuilder::broadcastTo(Value value, ArrayRef<int64_t> target) {
  if (!usable(value) || failed(checkShape(*this, target, "broadcast")))
    return {};
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return splat(value, target);
  if (tensor.getShape() == target)
    return value;
  if (tensor.getRank() > static_cast<int64_t>(target.size()))
    return nullAfter(emitError() << "cannot broadcast " << shapeText(tensor.getShape()) << " to "
                                 << shapeText(target) << ": the target has fewer dimensions");
  // Check before emitting anything: a failed broadcast leaves no stray ops.
  int64_t missing = target.size() - tensor.getRank();
  for (auto [i, d] : llvm::enumerate(tensor.getShape()))
    if (d != target[missing + i] && d != 1)
      return nullAfter(emitError() << "cannot broadcast " << shapeText(tensor.getShape()) << " to "
                                   << shapeText(target) << ": dimension " << i << " is " << d
                                   << ", neither 1 nor " << target[missing + i]);
  for (int64_t i = 0; i < missing; ++i)
    value = expandDims(value, 0);
  if (!value || shape(value) == target)
    return value;
  auto type = RankedTensorType::get(target, tensor.getElementType());
  return checkedValue(tt::BroadcastOp::create(b, currentLoc, type, value));
}

Value KernelBuilder::expandDims(Value tensor, int axis) {
  if (!usable(tensor))
    return {};
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type)
    return nullAfter(emitError() << "expandDims takes a tensor, got " << tensor.getType());
  int64_t rank = type.getRank();
  int64_t at = axis < 0 ? axis + rank + 1 : axis;
  if (at < 0 || at > rank)
    return nullAfter(emitError() << "expandDims: axis " << axis << " is out of range for rank "
                                 << rank);
  SmallVector<int64_t> result(type.getShape());
  result.insert(result.begin() + at, 1);
  auto resultType = RankedTensorType::get(result, type.getElementType());
  return checkedValue(
      tt::ExpandDimsOp::create(b, currentLoc, resultType, tensor, b.getI32IntegerAttr(at)));
}

Value KernelBuilder::reshape(Value tensor, ArrayRef<int64_t> newShape) {
  if (!usable(tensor) || failed(checkShape(*this, newShape, "reshape")))
    return {};
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type)
    return nullAfter(emitError() << "reshape takes a tensor, got " << tensor.getType());
  auto resultType = RankedTensorType::get(newShape, type.getElementType());
  if (resultType.getNumElements() != type.getNumElements())
    return nullAfter(emitError() << "cannot reshape " << shapeText(type.getShape()) << " into "
                                 << shapeText(newShape) << ": element counts differ");
  return checkedValue(tt::ReshapeOp::create(b, currentLoc, resultType, tensor));
}

Value KernelBuilder::trans(Value tensor, ArrayRef<int32_t> order) {
  if (!usable(tensor))
    return {};
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type)
    return nullAfter(emitError() << "trans takes a tensor, got " << tensor.getType());
  SmallVector<int32_t> perm(order);
  if (perm.empty())
    for (int64_t i = type.getRank() - 1; i >= 0; --i)
      perm.push_back(i);
  // The result type is computed from the permutation, so it must be one.
  SmallVector<bool> seen(type.getRank(), false);
  if (static_cast<int64_t>(perm.size()) != type.getRank() || llvm::any_of(perm, [&](int32_t d) {
        return d < 0 || d >= type.getRank() || std::exchange(seen[d], true);
      }))
    return nullAfter(
        emitError() << "trans: order " << shapeText(SmallVector<int64_t>(perm.begin(), perm.end()))
                    << " is not a permutation of the " << type.getRank() << " dimensions");
  SmallVector<int64_t> result;
  for (int32_t d : perm)
    result.push_back(type.getDimSize(d));
  auto resultType = RankedTensorType::get(result, type.getElementType());
  return checkedValue(tt::TransOp::create(b, currentLoc, resultType, tensor, perm));
}

/// The shape all of `values` broadcast to (empty when all are scalars).
FailureOr<SmallVector<int64_t>> KernelBuilder::commonShape(ValueRange values) {
  SmallVector<int64_t> result;
  for (Value v : values) {
    ArrayRef<int64_t> s = shape(v);
    if (s.empty())
      continue;
    // Align the trailing dimensions, as numpy and Triton do.
    SmallVector<int64_t> merged(std::max(result.size(), s.size()), 1);
    for (size_t i = 0; i < merged.size(); ++i) {
      int64_t a = i < result.size() ? result[result.size() - 1 - i] : 1;
      int64_t c = i < s.size() ? s[s.size() - 1 - i] : 1;
      if (a != c && a != 1 && c != 1)
        return emitError() << "shapes " << shapeText(result) << " and " << shapeText(s)
                           << " cannot be broadcast together";
      merged[merged.size() - 1 - i] = a == 1 ? c : a;
    }
    result = std::move(merged);
  }
  return result;
}

LogicalResult KernelBuilder::promote(MutableArrayRef<Value> values) {
  FailureOr<SmallVector<int64_t>> target = commonShape(values);
  if (failed(target))
    return failure();
  if (target->empty())
    return success();
  for (Value &v : values)
    if (!(v = broadcastTo(v, *target)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Value KernelBuilder::addptr(Value ptr, Value offset) {
  if (!usable({ptr, offset}))
    return {};
  if (!isa<tt::PointerType>(elementType(ptr)) || tt::isTensorPointerType(elementType(ptr)))
    return nullAfter(emitError() << "addptr: the first operand must be a pointer or a tensor of "
                                    "pointers, got "
                                 << ptr.getType());
  if (!isa<IntegerType>(elementType(offset)))
    return nullAfter(emitError() << "addptr: the offset must be an integer, got "
                                 << offset.getType());
  Value operands[] = {ptr, offset};
  if (failed(promote(operands)))
    return {};
  return checkedValue(
      tt::AddPtrOp::create(b, currentLoc, operands[0].getType(), operands[0], operands[1]));
}

Value KernelBuilder::load(Value ptr, Value mask, Value other) {
  if (!usable(ptr) || (mask && !usable(mask)) || (other && !usable(other)))
    return {};
  auto ptrType = dyn_cast<tt::PointerType>(elementType(ptr));
  if (!ptrType || tt::isTensorPointerType(ptrType))
    return nullAfter(emitError() << "load: expected a pointer or a tensor of pointers, got "
                                 << ptr.getType());
  if (other && !mask)
    return nullAfter(emitError() << "load: 'other' needs a mask (it is the value of masked-off "
                                    "elements)");
  if (mask && !elementType(mask).isInteger(1))
    return nullAfter(emitError() << "load: the mask must be i1, got " << mask.getType());
  if (other && elementType(other) != ptrType.getPointeeType())
    return nullAfter(emitError() << "load: 'other' must have the pointee type "
                                 << ptrType.getPointeeType() << ", got " << elementType(other));
  // The pointer decides the shape: a mask or other may be scalars or
  // broadcastable, but never make the load wider than its pointers.
  ArrayRef<int64_t> ptrShape = shape(ptr);
  for (Value *v : {&mask, &other}) {
    if (!*v)
      continue;
    if (ptrShape.empty() && !shape(*v).empty())
      return nullAfter(emitError() << "load: a scalar pointer takes a scalar mask and other, got "
                                   << v->getType());
    if (!ptrShape.empty() && !(*v = broadcastTo(*v, ptrShape)))
      return {};
  }
  return checkedValue(tt::LoadOp::create(b, currentLoc, ptr, mask, other));
}

LogicalResult KernelBuilder::store(Value ptr, Value value, Value mask) {
  if (!usable({ptr, value}) || (mask && !usable(mask)))
    return failure();
  auto ptrType = dyn_cast<tt::PointerType>(elementType(ptr));
  if (!ptrType || tt::isTensorPointerType(ptrType))
    return emitError() << "store: expected a pointer or a tensor of pointers, got "
                       << ptr.getType();
  if (elementType(value) != ptrType.getPointeeType())
    return emitError() << "store: the value must have the pointee type " << ptrType.getPointeeType()
                       << ", got " << elementType(value) << " (convert it with cast)";
  if (mask && !elementType(mask).isInteger(1))
    return emitError() << "store: the mask must be i1, got " << mask.getType();
  ArrayRef<int64_t> ptrShape = shape(ptr);
  for (Value *v : {&value, &mask}) {
    if (!*v)
      continue;
    if (ptrShape.empty() && !shape(*v).empty())
      return emitError() << "store: a scalar pointer takes a scalar value and mask, got "
                         << v->getType();
    if (!ptrShape.empty() && !(*v = broadcastTo(*v, ptrShape)))
      return failure();
  }
  return success(checked(tt::StoreOp::create(b, currentLoc, ptr, value, mask)) != nullptr);
}
//===----------------------------------------------------------------------===//
// Plugin ops
//===----------------------------------------------------------------------===//

Attribute KernelBuilder::constantAttr(const json::Value &value) {
  if (std::optional<bool> flag = value.getAsBoolean())
    return b.getBoolAttr(*flag);
  if (std::optional<int64_t> integer = value.getAsInteger())
    return b.getI64IntegerAttr(*integer);
  if (std::optional<double> number = value.getAsNumber())
    return b.getF64FloatAttr(*number);
  if (std::optional<StringRef> text = value.getAsString())
    return b.getStringAttr(*text);
  if (const json::Array *list = value.getAsArray()) {
    SmallVector<Attribute> elements;
    for (const json::Value &element : *list) {
      Attribute attr = constantAttr(element);
      if (!attr)
        return nullptr;
      elements.push_back(attr);
    }
    return b.getArrayAttr(elements);
  }
  return nullptr; // null and objects are not constants
}

Type KernelBuilder::dtype(StringRef name) {
  MLIRContext *c = b.getContext();
  return StringSwitch<Type>(name)
      .Case("int1", b.getI1Type())
      .Cases({"int8", "uint8"}, b.getI8Type())
      .Cases({"int16", "uint16"}, b.getI16Type())
      .Cases({"int32", "uint32"}, b.getI32Type())
      .Cases({"int64", "uint64"}, b.getI64Type())
      .Case("fp16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("fp32", b.getF32Type())
      .Case("fp64", b.getF64Type())
      .Case("fp8e4nv", Float8E4M3FNType::get(c))
      .Case("fp8e5", Float8E5M2Type::get(c))
      .Default(Type());
}

const KernelOp *KernelBuilder::lookupOp(StringRef opName) {
  const OpRegistry &registry = PluginManager::get().ops();
  if (const KernelOp *op = registry.lookup(opName))
    return op;
  InFlightDiagnostic diag = emitError() << "unknown kernel op '" << opName << "'";
  if (registry.all().empty())
    diag << "; no plugin op is loaded (load plugins with --plugin or "
            "TRITON_PLUGIN_PATHS)";
  else
    diag << "; loaded ops: "
         << llvm::join(llvm::map_range(registry.all(), [](const KernelOp &k) { return k.name; }),
                       ", ");
  return nullptr;
}

FailureOr<DictionaryAttr> KernelBuilder::completeConstants(const KernelOp &op,
                                                           DictionaryAttr constants) {
  NamedAttrList complete;
  for (const KernelOpOperand &operand : op.operands) {
    if (operand.kind != "constexpr")
      continue;
    Attribute given = constants ? constants.get(operand.name) : Attribute();
    if (!given && !operand.defaultJson.empty())
      if (llvm::Expected<json::Value> parsed = json::parse(operand.defaultJson))
        given = constantAttr(*parsed);
      else
        llvm::consumeError(parsed.takeError()); // the loader checked it
    if (!given)
      return emitError() << "'" << op.name << "' needs constexpr '" << operand.name
                         << "'; signature: " << op.signature;
    complete.append(operand.name, given);
  }
  if (constants)
    for (NamedAttribute given : constants)
      if (!complete.get(given.getName()))
        return emitError() << "'" << op.name << "' has no constexpr operand '"
                           << given.getName().getValue() << "'; signature: " << op.signature;
  return complete.getDictionary(b.getContext());
}

FailureOr<DictionaryAttr> KernelBuilder::completeConstants(StringRef opName,
                                                           DictionaryAttr constants) {
  const KernelOp *op = lookupOp(opName);
  if (!op)
    return failure();
  return completeConstants(*op, constants);
}

LogicalResult KernelBuilder::runBuilder(const KernelOp &op,
                                        function_ref<LogicalResult()> builder) {
  unsigned before = errors;
  if (succeeded(builder()) && errors == before)
    return success();
  // A builder that failed without saying why.
  if (errors == before)
    emitError() << "'" << op.name << "' failed to build";
  return failure();
}

LogicalResult KernelBuilder::buildScope(Operation *scope) {
  auto name = scope->getAttrOfType<StringAttr>(kScopeAttr);
  const KernelOp *op = name ? lookupOp(name.getValue()) : nullptr;
  if (!op)
    return failure();
  if (!op->buildScope)
    return emitError() << "'" << op->name << "' is an op, not a scope: call it, without `with`";
  FailureOr<DictionaryAttr> constants =
      completeConstants(*op, scope->getAttrOfType<DictionaryAttr>(kConstantsAttr));
  if (failed(constants))
    return failure();
  scope->setAttr(kConstantsAttr, *constants);
  // Marked, so that a builder leaving the region in place is caught.
  scope->setAttr(kScopeBuiltAttr, b.getUnitAttr());
  Operation *parent = scope->getParentOp();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(scope);
  Location savedLoc = currentLoc;
  currentLoc = scope->getLoc();
  LogicalResult built = runBuilder(*op, [&] { return op->buildScope(*this, scope); });
  currentLoc = savedLoc;
  if (failed(built))
    return failure();
  bool left = parent->walk([](Operation *op) {
                      return op->hasAttr(kScopeBuiltAttr) ? WalkResult::interrupt()
                                                           : WalkResult::advance();
                    }).wasInterrupted();
  if (left)
    return emitError() << "the scope builder of '" << op->name << "' left its region in place";
  return success();
}

FailureOr<SmallVector<Value>> KernelBuilder::call(StringRef opName, ValueRange operands,
                                                  DictionaryAttr constants) {
  if (!usable(operands))
    return failure();
  const KernelOp *op = lookupOp(opName);
  if (!op)
    return failure();
  if (!op->build)
    return emitError() << "'" << op->name << "' is a scope: use it as `with " << op->name
                       << "(...):`";
  // Constexprs arrive by name (defaults filled in here); the rest by position.
  SmallVector<std::string> valueNames;
  bool variadic = false;
  for (const KernelOpOperand &operand : op->operands) {
    if (operand.kind == "tensors") {
      variadic = true;
      valueNames.push_back(operand.name + "...");
    } else if (operand.kind != "constexpr") {
      valueNames.push_back(operand.name);
    }
  }
  FailureOr<DictionaryAttr> complete = completeConstants(*op, constants);
  if (failed(complete))
    return failure();
  // A list operand stands for any number of values, none included.
  size_t fixed = valueNames.size() - (variadic ? 1 : 0);
  if (variadic ? operands.size() < fixed : operands.size() != fixed)
    return emitError() << "'" << op->name << "' takes " << valueNames.size() << " operand(s) ("
                       << llvm::join(valueNames, ", ") << ") but was given " << operands.size()
                       << "; signature: " << op->signature;

  // A plugin's builder may move the insertion point or the location; the
  // caller's code continues where it was.
  OpBuilder::InsertionGuard guard(b);
  Location savedLoc = currentLoc;
  FailureOr<SmallVector<Value>> results;
  LogicalResult built = runBuilder(*op, [&] {
    results = op->build(*this, operands, *complete);
    return LogicalResult(results);
  });
  currentLoc = savedLoc;
  if (failed(built))
    return failure();
  if (results->size() != op->numResults)
    return emitError() << "'" << op->name << "' built " << results->size()
                       << " result(s) but declares " << op->numResults;
  if (llvm::any_of(*results, [](Value v) { return !v; }))
    return emitError() << "'" << op->name << "' returned a null value";
  return results;
}

//===----------------------------------------------------------------------===//
// Finishing
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> KernelBuilder::finish() & {
  if (!usable({}))
    return nullptr;
  tt::FuncOp done = func;
  func = nullptr;
  if (errors) {
    module = nullptr;
    return nullptr;
  }
  b.setInsertionPointToEnd(&done.getBody().front());
  tt::ReturnOp::create(b, currentLoc);
  if (failed(mlir::verify(*module))) {
    ++errors;
    module = nullptr;
    return nullptr;
  }
  return std::move(module);
}

} // namespace kiln
