//===- StructuredOps.cpp - tt ops with regions or contractions ------------===//
//
// Verifiers and builders of tt.dot, tt.dot_scaled, tt.reduce, tt.scan and
// tt.map_elementwise. The generated op classes are defined in Ops.cpp.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "VerifierSupport.h"

using namespace mlir;
using namespace kiln::tt;
using kiln::tt::detail::shapeString;

namespace {

/// Region block of `op` must take `argTypes` and end in a `ReturnOpTy`
/// yielding `yieldTypes`.
template <typename ReturnOpTy>
LogicalResult verifyCombineRegion(Operation *op, Region &region, TypeRange argTypes,
                                  TypeRange yieldTypes) {
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError() << "combine region must take " << argTypes.size()
                             << " arguments, but it takes " << block.getNumArguments();
  for (auto [i, arg, want] : llvm::enumerate(block.getArgumentTypes(), argTypes))
    if (arg != want)
      return op->emitOpError() << "combine region argument #" << i << " has type "
                               << arg << " but " << want << " is required";
  Operation *terminator = block.getTerminator();
  if (!isa<ReturnOpTy>(terminator))
    return op->emitOpError() << "combine region must end in '"
                             << ReturnOpTy::getOperationName() << "', not '"
                             << terminator->getName() << "'";
  if (terminator->getNumOperands() != yieldTypes.size())
    return op->emitOpError() << "combine region must yield " << yieldTypes.size()
                             << " values, but it yields " << terminator->getNumOperands();
  for (auto [i, got, want] :
       llvm::enumerate(terminator->getOperandTypes(), yieldTypes))
    if (got != want)
      return op->emitOpError() << "combine region result #" << i << " has type " << got
                               << " but " << want << " is required";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError() << "operands must be 2-D (or 3-D batched), got rank " << rank;
  if (b.getRank() != rank || c.getRank() != rank)
    return emitOpError() << "a, b and c must have the same rank";
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = c.getShape();
  if (as[rank - 1] != bs[rank - 2])
    return emitOpError() << "reduction dimensions differ: a is "
                         << shapeString(as) << ", b is " << shapeString(bs);
  if (cs[rank - 2] != as[rank - 2] || cs[rank - 1] != bs[rank - 1] ||
      (rank == 3 && (as[0] != bs[0] || as[0] != cs[0])))
    return emitOpError() << "accumulator shape " << shapeString(cs)
                         << " does not match a " << shapeString(as) << " * b "
                         << shapeString(bs);
  bool aFloat = isa<FloatType>(a.getElementType());
  if (aFloat != isa<FloatType>(b.getElementType()))
    return emitOpError() << "a and b must both be float or both be integer";
  if (aFloat != isa<FloatType>(c.getElementType()))
    return emitOpError() << "accumulator " << c.getElementType()
                         << " does not suit inputs of " << a.getElementType();
  // Mixed widths (say f16 * f8) are not a tensor-core shape; Triton casts
  // one side before emitting the dot.
  if (a.getElementType().getIntOrFloatBitWidth() !=
      b.getElementType().getIntOrFloatBitWidth())
    return emitOpError() << "a and b must have elements of the same width, got "
                         << a.getElementType() << " and " << b.getElementType();
  return success();
}

LogicalResult DotScaledOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  int64_t rank = a.getRank();
  if (rank < 2 || b.getRank() != rank || c.getRank() != rank)
    return emitOpError() << "a, b and c must have the same rank, at least 2";
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = c.getShape();
  // e2m1 packs two values per i8: along K, or along M (N) when k_pack is off.
  bool aPacked = getAElemType() == ScaleDotElemType::E2M1;
  bool bPacked = getBElemType() == ScaleDotElemType::E2M1;
  int64_t m = as[rank - 2] * (aPacked && !getLhsKPack() ? 2 : 1);
  int64_t aK = as[rank - 1] * (aPacked && getLhsKPack() ? 2 : 1);
  int64_t bK = bs[rank - 2] * (bPacked && getRhsKPack() ? 2 : 1);
  int64_t n = bs[rank - 1] * (bPacked && !getRhsKPack() ? 2 : 1);
  if (aK != bK)
    return emitOpError() << "reduction dimensions differ: a holds K = " << aK
                         << ", b holds K = " << bK;
  if (cs[rank - 2] != m || cs[rank - 1] != n ||
      as.drop_back(2) != cs.drop_back(2) || bs.drop_back(2) != cs.drop_back(2))
    return emitOpError() << "accumulator shape " << shapeString(cs)
                         << " does not match the " << m << "x" << n
                         << " product of a " << shapeString(as) << " and b "
                         << shapeString(bs);
  // A scale holds one exponent per 16 or 32 elements of K for each row of
  // M (a) or column of N (b); a single-element scale is a broadcast one.
  int64_t scaleFactor = 0;
  auto verifyScale = [&](Value scale, int64_t rows, StringRef which) -> LogicalResult {
    if (!scale)
      return success();
    auto type = cast<RankedTensorType>(scale.getType());
    if (type.getNumElements() == 1)
      return success();
    ArrayRef<int64_t> ss = type.getShape();
    if (type.getRank() != rank || ss[rank - 2] != rows)
      return emitOpError() << which << " scale shape " << shapeString(ss)
                           << " must have " << rows << " rows";
    int64_t factor = ss[rank - 1] ? aK / ss[rank - 1] : 0;
    if ((factor != 16 && factor != 32) || factor * ss[rank - 1] != aK)
      return emitOpError() << which << " scale shape " << shapeString(ss)
                           << " must hold one value per 16 or 32 elements of K = "
                           << aK;
    if (scaleFactor && scaleFactor != factor)
      return emitOpError() << "lhs and rhs scales use different block sizes ("
                           << scaleFactor << " and " << factor << ")";
    scaleFactor = factor;
    return success();
  };
  if (failed(verifyScale(getAScale(), m, "lhs")) ||
      failed(verifyScale(getBScale(), n, "rhs")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce, scan, map_elementwise
//===----------------------------------------------------------------------===//

static LogicalResult verifySameShapedInputs(Operation *op, ValueRange srcs,
                                            int64_t axis) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (Value v : srcs)
    if (cast<RankedTensorType>(v.getType()).getShape() != first.getShape())
      return op->emitOpError() << "all operands must have the same shape";
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for rank "
                             << first.getRank();
  return success();
}

SmallVector<RankedTensorType> ReduceOp::getInputTypes() {
  SmallVector<RankedTensorType> types;
  for (Value v : getSrcs())
    types.push_back(cast<RankedTensorType>(v.getType()));
  return types;
}

SmallVector<Type> ReduceOp::getElementTypes() {
  SmallVector<Type> types;
  for (RankedTensorType t : getInputTypes())
    types.push_back(t.getElementType());
  return types;
}

/// Result types of reducing `inputs` along `axis`. A result encoding the
/// input's dialect cannot infer is left null (and not checked).
static SmallVector<Type> reducedTypes(ArrayRef<RankedTensorType> inputs, int64_t axis) {
  SmallVector<Type> types;
  for (RankedTensorType t : inputs) {
    if (t.getRank() == 1) {
      types.push_back(t.getElementType());
      continue;
    }
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + axis);
    Attribute encoding;
    if (Attribute src = t.getEncoding())
      if (auto *infer = dyn_cast<DialectInferLayoutInterface>(&src.getDialect()))
        encoding = infer->inferReduceEncoding(src, axis);
    types.push_back(RankedTensorType::get(shape, t.getElementType(), encoding));
  }
  return types;
}

void ReduceOp::build(OpBuilder &builder, OperationState &state, ValueRange srcs,
                     int axis) {
  SmallVector<RankedTensorType> inputs;
  for (Value v : srcs)
    inputs.push_back(cast<RankedTensorType>(v.getType()));
  build(builder, state, reducedTypes(inputs, axis), srcs, axis);
}

LogicalResult ReduceOp::verify() {
  if (failed(verifySameShapedInputs(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  SmallVector<Type> want = reducedTypes(getInputTypes(), getAxis());
  if (getNumResults() != want.size())
    return emitOpError() << "expects " << want.size() << " results, got "
                         << getNumResults();
  for (auto [i, got, expected] : llvm::enumerate(getResultTypes(), want)) {
    // An input encoding whose dialect cannot infer the result's leaves the
    // result encoding free.
    auto gotTensor = dyn_cast<RankedTensorType>(got);
    auto wantTensor = dyn_cast<RankedTensorType>(expected);
    bool free = gotTensor && wantTensor && !wantTensor.getEncoding() &&
                getInputTypes()[i].getEncoding();
    bool same = free ? gotTensor.getShape() == wantTensor.getShape() &&
                           gotTensor.getElementType() == wantTensor.getElementType()
                     : got == expected;
    if (!same)
      return emitOpError() << "result #" << i << " must be " << expected << ", got "
                           << got;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  SmallVector<Type> elements = getElementTypes();
  SmallVector<Type> args(elements);
  args.append(elements.begin(), elements.end());
  return verifyCombineRegion<ReduceReturnOp>(*this, getCombineOp(), args, elements);
}

SmallVector<RankedTensorType> ScanOp::getInputTypes() {
  SmallVector<RankedTensorType> types;
  for (Value v : getSrcs())
    types.push_back(cast<RankedTensorType>(v.getType()));
  return types;
}

SmallVector<Type> ScanOp::getElementTypes() {
  SmallVector<Type> types;
  for (RankedTensorType t : getInputTypes())
    types.push_back(t.getElementType());
  return types;
}

void ScanOp::build(OpBuilder &builder, OperationState &state, ValueRange srcs,
                   int axis, bool reverse) {
  build(builder, state, srcs.getTypes(), srcs, axis, reverse);
}

LogicalResult ScanOp::verify() {
  if (failed(verifySameShapedInputs(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError() << "expects one result per operand";
  for (auto [src, res] : llvm::zip(getSrcs().getTypes(), getResultTypes()))
    if (src != res)
      return emitOpError() << "result type " << res << " must match operand type " << src;
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  SmallVector<Type> elements = getElementTypes();
  SmallVector<Type> args(elements);
  args.append(elements.begin(), elements.end());
  return verifyCombineRegion<ScanReturnOp>(*this, getCombineOp(), args, elements);
}

LogicalResult MapElementwiseOp::verify() {
  if (getPack() < 1 || !llvm::isPowerOf2_32(getPack()))
    return emitOpError() << "pack must be a power of 2, got " << getPack();
  for (Value v : getSrcs())
    if (cast<RankedTensorType>(v.getType()).getNumElements() % getPack() != 0)
      return emitOpError() << "element count must be a multiple of pack " << getPack();
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  if (getScalarOp().empty())
    return emitOpError() << "needs a region";
  // `pack` arguments per operand, then `pack` results per result, in order.
  SmallVector<Type> args, yields;
  for (Type t : getSrcs().getTypes())
    args.append(getPack(), cast<RankedTensorType>(t).getElementType());
  for (Type t : getResultTypes())
    yields.append(getPack(), cast<RankedTensorType>(t).getElementType());
  Block &entry = getScalarOp().front();
  if (entry.getNumArguments() != args.size())
    return emitOpError() << "region must take " << args.size() << " arguments, but it takes "
                         << entry.getNumArguments();
  for (auto [i, got, want] : llvm::enumerate(entry.getArgumentTypes(), args))
    if (got != want)
      return emitOpError() << "region argument #" << i << " has type " << got << " but "
                           << want << " is required";
  for (Block &block : getScalarOp()) {
    auto ret = dyn_cast<MapElementwiseReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    if (TypeRange(ret.getOperandTypes()) != TypeRange(yields))
      return emitOpError() << "region must yield " << yields.size()
                           << " values of the result element types";
  }
  // The region runs once per element (or pack); a write in it would not be
  // masked like the tensor op it stands for, so Triton forbids stores there.
  Operation *writer = nullptr;
  getScalarOp().walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || !effects.hasEffect<MemoryEffects::Write>())
      return WalkResult::advance();
    writer = op;
    return WalkResult::interrupt();
  });
  if (writer)
    return emitOpError() << "region must not write to memory, but '"
                         << writer->getName() << "' does";
  return success();
}

