//===- KernelBuilder.cpp - building TTIR kernels from C++ -----------------===//
//
// Every public method follows the header's error convention: check the
// operands (usable), check what the op's own verifier would not explain
// well, build, then verify the new op (checked) so that anything left over
// is still reported at the op's location instead of crashing later.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/KernelBuilder.h"

#include "kiln/Frontend/OpRegistry.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;

namespace kiln {

namespace {

/// "[4, 8]", for messages about shapes (a scalar is "[]").
std::string shapeText(ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), ", ") +
         "]";
}

/// "0.5", not the "5.000000e-01" a diagnostic would print for a double.
std::string numberText(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

/// The same shape as `like` (scalar or tensor) with `element` inside.
Type withElementType(Type like, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), element);
  return element;
}

bool isIntOrFloat(Type type) { return isa<IntegerType, FloatType>(type); }

/// The null Value a failed call returns; `diagnostic` reports itself.
Value nullAfter(const InFlightDiagnostic &diagnostic) { return Value(); }

/// Picks the float or the integer form of a two-operand arith op.
template <typename FloatOp, typename IntOp>
Operation *floatOrInt(OpBuilder &b, Location loc, Value lhs, Value rhs, bool isFloat) {
  if (isFloat)
    return FloatOp::create(b, loc, lhs, rhs);
  return IntOp::create(b, loc, lhs, rhs);
}

/// Picks the float, signed or unsigned form of a two-operand arith op.
template <typename FloatOp, typename SignedOp, typename UnsignedOp>
Operation *bySign(OpBuilder &b, Location loc, Value lhs, Value rhs, bool isFloat, Sign sign) {
  if (isFloat)
    return FloatOp::create(b, loc, lhs, rhs);
  if (sign == Sign::Unsigned)
    return UnsignedOp::create(b, loc, lhs, rhs);
  return SignedOp::create(b, loc, lhs, rhs);
}

} // namespace

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
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

Value KernelBuilder::binary(StringRef what, Value lhs, Value rhs, bool allowFloat, bool allowInt,
                            function_ref<Operation *(Value, Value, bool)> make) {
  if (!usable({lhs, rhs}))
    return {};
  Type lt = elementType(lhs), rt = elementType(rhs);
  if (lt != rt)
    return nullAfter(emitError() << what << ": operands have different element types, " << lt
                                 << " and " << rt << "; convert one with cast");
  bool isFloat = isa<FloatType>(lt);
  if (!(isFloat && allowFloat) && !(isa<IntegerType>(lt) && allowInt))
    return nullAfter(emitError() << what << " does not take operands of type " << lt
                                 << (isa<tt::PointerType>(lt) ? " (use addptr for pointers)" : ""));
  Value operands[] = {lhs, rhs};
  if (failed(promote(operands)))
    return {};
  return checkedValue(make(operands[0], operands[1], isFloat));
}

Value KernelBuilder::add(Value lhs, Value rhs) {
  return binary("add", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return floatOrInt<arith::AddFOp, arith::AddIOp>(b, currentLoc, l, r, f);
  });
}

Value KernelBuilder::sub(Value lhs, Value rhs) {
  return binary("sub", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return floatOrInt<arith::SubFOp, arith::SubIOp>(b, currentLoc, l, r, f);
  });
}

Value KernelBuilder::mul(Value lhs, Value rhs) {
  return binary("mul", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return floatOrInt<arith::MulFOp, arith::MulIOp>(b, currentLoc, l, r, f);
  });
}

Value KernelBuilder::div(Value lhs, Value rhs, Sign sign) {
  return binary("div", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return bySign<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>(b, currentLoc, l, r, f, sign);
  });
}

Value KernelBuilder::rem(Value lhs, Value rhs, Sign sign) {
  return binary("rem", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return bySign<arith::RemFOp, arith::RemSIOp, arith::RemUIOp>(b, currentLoc, l, r, f, sign);
  });
}

Value KernelBuilder::minimum(Value lhs, Value rhs, Sign sign) {
  return binary("minimum", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return bySign<arith::MinNumFOp, arith::MinSIOp, arith::MinUIOp>(b, currentLoc, l, r, f, sign);
  });
}

Value KernelBuilder::maximum(Value lhs, Value rhs, Sign sign) {
  return binary("maximum", lhs, rhs, true, true, [&](Value l, Value r, bool f) {
    return bySign<arith::MaxNumFOp, arith::MaxSIOp, arith::MaxUIOp>(b, currentLoc, l, r, f, sign);
  });
}

Value KernelBuilder::bitAnd(Value lhs, Value rhs) {
  return binary("bitAnd", lhs, rhs, false, true, [&](Value l, Value r, bool) {
    return arith::AndIOp::create(b, currentLoc, l, r).getOperation();
  });
}

Value KernelBuilder::bitOr(Value lhs, Value rhs) {
  return binary("bitOr", lhs, rhs, false, true, [&](Value l, Value r, bool) {
    return arith::OrIOp::create(b, currentLoc, l, r).getOperation();
  });
}

Value KernelBuilder::bitXor(Value lhs, Value rhs) {
  return binary("bitXor", lhs, rhs, false, true, [&](Value l, Value r, bool) {
    return arith::XOrIOp::create(b, currentLoc, l, r).getOperation();
  });
}

Value KernelBuilder::neg(Value x) {
  if (!usable(x))
    return {};
  Type element = elementType(x);
  if (isa<FloatType>(element))
    return checkedValue(arith::NegFOp::create(b, currentLoc, x));
  if (!isa<IntegerType>(element))
    return nullAfter(emitError() << "neg does not take operands of type " << element);
  // arith has no integer negation; 0 - x is what it canonicalises to.
  return sub(zerosLike(x.getType()), x);
}

Value KernelBuilder::cmp(CmpKind kind, Value lhs, Value rhs, Sign sign) {
  bool isUnsigned = sign == Sign::Unsigned;
  return binary("cmp", lhs, rhs, true, true, [&](Value l, Value r, bool f) -> Operation * {
    if (f) {
      // Ordered, except !=, which must hold when either side is NaN.
      arith::CmpFPredicate p = arith::CmpFPredicate::OEQ; // every case sets it
      switch (kind) {
      case CmpKind::EQ: p = arith::CmpFPredicate::OEQ; break;
      case CmpKind::NE: p = arith::CmpFPredicate::UNE; break;
      case CmpKind::LT: p = arith::CmpFPredicate::OLT; break;
      case CmpKind::LE: p = arith::CmpFPredicate::OLE; break;
      case CmpKind::GT: p = arith::CmpFPredicate::OGT; break;
      case CmpKind::GE: p = arith::CmpFPredicate::OGE; break;
      }
      return arith::CmpFOp::create(b, currentLoc, p, l, r);
    }
    arith::CmpIPredicate p = arith::CmpIPredicate::eq; // every case sets it
    switch (kind) {
    case CmpKind::EQ: p = arith::CmpIPredicate::eq; break;
    case CmpKind::NE: p = arith::CmpIPredicate::ne; break;
    case CmpKind::LT: p = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
    case CmpKind::LE: p = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
    case CmpKind::GT: p = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
    case CmpKind::GE: p = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
    }
    return arith::CmpIOp::create(b, currentLoc, p, l, r);
  });
}

Value KernelBuilder::select(Value cond, Value a, Value c) {
  if (!usable({cond, a, c}))
    return {};
  if (!elementType(cond).isInteger(1))
    return nullAfter(emitError() << "select: the condition must be i1, got " << cond.getType());
  if (elementType(a) != elementType(c))
    return nullAfter(emitError() << "select: the two choices have different element types, "
                                 << elementType(a) << " and " << elementType(c));
  Value operands[] = {cond, a, c};
  if (failed(promote(operands)))
    return {};
  return checkedValue(
      arith::SelectOp::create(b, currentLoc, operands[0], operands[1], operands[2]));
}

Value KernelBuilder::cast(Value x, Type to, Sign sign) {
  if (!usable(x))
    return {};
  Type from = elementType(x);
  if (!isIntOrFloat(from) || !to || !isIntOrFloat(to))
    return nullAfter(emitError() << "cast converts between integer and float types, not from "
                                 << from << " to " << to);
  if (from == to)
    return x;
  Type result = withElementType(x.getType(), to);
  Location loc = currentLoc;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  // To i1 is a truth test, as in C and Triton: not a truncation to bit 0.
  if (toInt && toInt.getWidth() == 1)
    return cmp(CmpKind::NE, x, zerosLike(x.getType()));
  // i1 holds no sign: true converts to 1, never -1.
  bool fromUnsigned = sign == Sign::Unsigned || (fromInt && fromInt.getWidth() == 1);
  Operation *op;
  if (fromInt && toInt) {
    if (toInt.getWidth() < fromInt.getWidth())
      op = arith::TruncIOp::create(b, loc, result, x);
    else if (fromUnsigned)
      op = arith::ExtUIOp::create(b, loc, result, x);
    else
      op = arith::ExtSIOp::create(b, loc, result, x);
  } else if (fromInt) {
    if (fromUnsigned)
      op = arith::UIToFPOp::create(b, loc, result, x);
    else
      op = arith::SIToFPOp::create(b, loc, result, x);
  } else if (toInt) {
    if (sign == Sign::Unsigned)
      op = arith::FPToUIOp::create(b, loc, result, x);
    else
      op = arith::FPToSIOp::create(b, loc, result, x);
  } else if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth()) {
    op = arith::ExtFOp::create(b, loc, result, x);
  } else if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth()) {
    op = arith::TruncFOp::create(b, loc, result, x);
  } else {
    // Same width, other format (f16 <-> bf16, e4m3 <-> e5m2): arith has no
    // such cast, tt.fp_to_fp does (a same-width conversion takes no rounding
    // mode; it rounds to nearest even).
    op = tt::FpToFpOp::create(b, loc, result, x, /*rounding=*/nullptr);
  }
  return checkedValue(op);
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

Value KernelBuilder::math(MathFn fn, Value x) {
  if (!usable(x))
    return {};
  Type element = elementType(x);
  Location loc = currentLoc;
  if (fn == MathFn::Abs && isa<IntegerType>(element))
    return checkedValue(math::AbsIOp::create(b, loc, x));
  if (!isa<FloatType>(element))
    return nullAfter(emitError() << "math functions take floats, got " << element
                                 << " (convert it with cast)");
  Operation *op = nullptr;
  switch (fn) {
  case MathFn::Exp: op = math::ExpOp::create(b, loc, x); break;
  case MathFn::Exp2: op = math::Exp2Op::create(b, loc, x); break;
  case MathFn::Log: op = math::LogOp::create(b, loc, x); break;
  case MathFn::Log2: op = math::Log2Op::create(b, loc, x); break;
  case MathFn::Log1p: op = math::Log1pOp::create(b, loc, x); break;
  case MathFn::Sqrt: op = math::SqrtOp::create(b, loc, x); break;
  case MathFn::Rsqrt: op = math::RsqrtOp::create(b, loc, x); break;
  case MathFn::Sin: op = math::SinOp::create(b, loc, x); break;
  case MathFn::Cos: op = math::CosOp::create(b, loc, x); break;
  case MathFn::Tanh: op = math::TanhOp::create(b, loc, x); break;
  case MathFn::Erf: op = math::ErfOp::create(b, loc, x); break;
  case MathFn::Floor: op = math::FloorOp::create(b, loc, x); break;
  case MathFn::Ceil: op = math::CeilOp::create(b, loc, x); break;
  case MathFn::Abs: op = math::AbsFOp::create(b, loc, x); break;
  }
  return checkedValue(op);
}

Value KernelBuilder::fma(Value a, Value x, Value c) {
  if (!usable({a, x, c}))
    return {};
  Type element = elementType(a);
  if (!isa<FloatType>(element) || elementType(x) != element || elementType(c) != element)
    return nullAfter(emitError() << "fma takes three operands of one float type, got " << element
                                 << ", " << elementType(x) << " and " << elementType(c));
  Value operands[] = {a, x, c};
  if (failed(promote(operands)))
    return {};
  return checkedValue(math::FmaOp::create(b, currentLoc, operands[0], operands[1], operands[2]));
}

//===----------------------------------------------------------------------===//
// Dot, reductions, loops
//===----------------------------------------------------------------------===//

Value KernelBuilder::dot(Value a, Value x, Value acc, tt::InputPrecision precision) {
  if (!usable({a, x}) || (acc && !usable(acc)))
    return {};
  auto at = dyn_cast<RankedTensorType>(a.getType());
  auto bt = dyn_cast<RankedTensorType>(x.getType());
  if (!at || !bt || at.getRank() != bt.getRank() || at.getRank() < 2 || at.getRank() > 3)
    return nullAfter(emitError() << "dot takes two 2-D (or batched 3-D) tensors of one rank, got "
                                 << a.getType() << " and " << x.getType());
  ArrayRef<int64_t> as = at.getShape(), bs = bt.getShape();
  int64_t rank = at.getRank();
  if (as[rank - 1] != bs[rank - 2])
    return nullAfter(emitError() << "dot: a is " << shapeText(as) << " and b is " << shapeText(bs)
                                 << "; the inner dimensions " << as[rank - 1] << " and "
                                 << bs[rank - 2] << " differ");
  if (rank == 3 && as[0] != bs[0])
    return nullAfter(emitError() << "dot: batch dimensions differ, " << shapeText(as) << " and "
                                 << shapeText(bs));
  SmallVector<int64_t> resultShape(as.drop_back());
  resultShape.push_back(bs[rank - 1]);
  if (!acc) {
    Type accElement =
        isa<FloatType>(at.getElementType()) ? Type(b.getF32Type()) : Type(b.getI32Type());
    acc = full(resultShape, 0, accElement);
  } else {
    acc = broadcastTo(acc, resultShape);
  }
  if (!acc)
    return {};
  return checkedValue(tt::DotOp::create(b, currentLoc, acc.getType(), a, x, acc, precision, 0));
}

Value KernelBuilder::reduce(Value x, int axis, ReduceKind kind) {
  if (!usable(x))
    return {};
  if (!isIntOrFloat(elementType(x)))
    return nullAfter(emitError() << "reduce: cannot sum or compare elements of type "
                                 << elementType(x));
  FailureOr<SmallVector<Value>> results =
      reduce(ValueRange(x), axis, [&](ValueRange acc, ValueRange next) -> SmallVector<Value> {
        switch (kind) {
        case ReduceKind::Sum: return {add(acc[0], next[0])};
        case ReduceKind::Max: return {maximum(acc[0], next[0])};
        case ReduceKind::Min: return {minimum(acc[0], next[0])};
        }
        return {};
      });
  return failed(results) ? Value() : (*results)[0];
}

FailureOr<SmallVector<Value>> KernelBuilder::reduce(ValueRange xs, int axis, CombineFn combine) {
  if (!usable(xs))
    return failure();
  if (xs.empty())
    return emitError() << "reduce needs at least one tensor";
  auto first = dyn_cast<RankedTensorType>(xs[0].getType());
  for (Value x : xs) {
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t)
      return emitError() << "reduce takes tensors, got " << x.getType();
    if (t.getShape() != first.getShape())
      return emitError() << "reduce: the inputs have different shapes, "
                         << shapeText(first.getShape()) << " and " << shapeText(t.getShape());
  }
  int64_t rank = first.getRank();
  int64_t at = axis < 0 ? axis + rank : axis;
  if (at < 0 || at >= rank)
    return emitError() << "reduce: axis " << axis << " is out of range for rank " << rank;

  auto op = tt::ReduceOp::create(b, currentLoc, xs, static_cast<int>(at));
  SmallVector<Type> elements = op.getElementTypes();
  size_t n = elements.size();
  {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Type> argTypes(elements);
    argTypes.append(elements.begin(), elements.end());
    SmallVector<Location> argLocs(argTypes.size(), currentLoc);
    Block *body = b.createBlock(&op.getCombineOp(), {}, argTypes, argLocs);
    unsigned before = errors;
    SmallVector<Value> next =
        combine(body->getArguments().take_front(n), body->getArguments().drop_front(n));
    LogicalResult ok = success(errors == before);
    if (succeeded(ok) && next.size() != n)
      ok = emitError() << "reduce: the combine function returned " << next.size() << " values for "
                       << n << " inputs";
    for (size_t i = 0; succeeded(ok) && i < n; ++i)
      if (!next[i] || next[i].getType() != elements[i])
        ok = emitError() << "reduce: combine result #" << i << " must be a scalar " << elements[i]
                         << ", got " << (next[i] ? next[i].getType() : Type());
    if (failed(ok)) {
      op->erase();
      return failure();
    }
    tt::ReduceReturnOp::create(b, currentLoc, next);
  }
  if (!checked(op))
    return failure();
  return SmallVector<Value>(op->result_begin(), op->result_end());
}

FailureOr<SmallVector<Value>> KernelBuilder::forLoop(Value lower, Value upper, Value step,
                                                     ValueRange inits, LoopBodyFn body) {
  if (!usable({lower, upper, step}) || !usable(inits))
    return failure();
  Type boundType = lower.getType();
  if (!isa<IntegerType>(boundType) || upper.getType() != boundType || step.getType() != boundType)
    return emitError() << "forLoop: bounds and step must be integer scalars of one type, got "
                       << lower.getType() << ", " << upper.getType() << " and " << step.getType();

  auto loop = scf::ForOp::create(b, currentLoc, lower, upper, step, inits);
  Block *block = loop.getBody();
  // Without iter_args the builder adds an empty yield; ours comes last.
  if (!block->empty())
    block->back().erase();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(block);
    unsigned before = errors;
    SmallVector<Value> next = body(loop.getInductionVar(), loop.getRegionIterArgs());
    LogicalResult ok = success(errors == before);
    if (succeeded(ok) && next.size() != inits.size())
      ok = emitError() << "forLoop: the body returned " << next.size() << " values for "
                       << inits.size() << " loop-carried values";
    for (size_t i = 0; succeeded(ok) && i < inits.size(); ++i)
      if (!next[i] || next[i].getType() != inits[i].getType())
        ok = emitError() << "forLoop: loop-carried value #" << i << " starts as "
                         << inits[i].getType() << " but the body returns "
                         << (next[i] ? next[i].getType() : Type());
    if (failed(ok)) {
      loop->erase();
      return failure();
    }
    scf::YieldOp::create(b, currentLoc, next);
  }
  if (!checked(loop))
    return failure();
  return SmallVector<Value>(loop->result_begin(), loop->result_end());
}

//===----------------------------------------------------------------------===//
// Plugin ops
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> KernelBuilder::call(StringRef opName, ValueRange operands) {
  if (!usable(operands))
    return failure();
  const OpRegistry &registry = PluginManager::get().ops();
  const KernelOp *op = registry.lookup(opName);
  if (!op) {
    InFlightDiagnostic diag = emitError() << "unknown kernel op '" << opName << "'";
    if (registry.all().empty())
      diag << "; no plugin op is loaded (load plugins with --plugin or "
              "TRITON_PLUGIN_PATHS)";
    else
      diag << "; loaded ops: "
           << llvm::join(llvm::map_range(registry.all(), [](const KernelOp &k) { return k.name; }),
                         ", ");
    return failure();
  }
  if (operands.size() != op->operands.size())
    return emitError() << "'" << op->name << "' takes " << op->operands.size() << " operand(s) ("
                       << llvm::join(op->operands, ", ") << ") but was given " << operands.size()
                       << "; signature: " << op->signature;

  // A plugin's builder may move the insertion point or the location; the
  // caller's code continues where it was.
  OpBuilder::InsertionGuard guard(b);
  Location savedLoc = currentLoc;
  unsigned before = errors;
  FailureOr<SmallVector<Value>> results = op->build(*this, operands);
  currentLoc = savedLoc;
  if (failed(results) || errors != before) {
    if (errors == before)
      emitError() << "'" << op->name << "' failed to build";
    return failure();
  }
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
