//===- KernelBuilderSupport.h - shared by the KernelBuilder sources -*- C++ -*-===//
#ifndef KILN_LIB_FRONTEND_KERNELBUILDERSUPPORT_H
#define KILN_LIB_FRONTEND_KERNELBUILDERSUPPORT_H

#include "kiln/Frontend/KernelBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <string>

namespace kiln::detail {

using namespace mlir;


/// "[4, 8]", for messages about shapes (a scalar is "[]").
inline std::string shapeText(ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), ", ") +
         "]";
}

/// "0.5", not the "5.000000e-01" a diagnostic would print for a double.
inline std::string numberText(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

/// The same shape as `like` (scalar or tensor) with `element` inside.
inline Type withElementType(Type like, Type element) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), element);
  return element;
}

inline bool isIntOrFloat(Type type) { return isa<IntegerType, FloatType>(type); }

/// The null Value a failed call returns; `diagnostic` reports itself.
inline Value nullAfter(const InFlightDiagnostic &diagnostic) { return Value(); }

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


} // namespace kiln::detail

#endif
