//===- KernelBuilderCompute.cpp - KernelBuilder: arithmetic and control ---===//
//
// Elementwise arithmetic, casts, math functions, dot, reductions and loops.
// The header's error convention holds here as in KernelBuilder.cpp.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/KernelBuilder.h"

#include "KernelBuilderSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace kiln::detail;

namespace kiln {

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

} // namespace kiln
