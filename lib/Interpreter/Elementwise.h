//===- Elementwise.h - shared elementwise op drivers (internal) -*- C++ -*-===//
#ifndef KILN_LIB_INTERPRETER_ELEMENTWISE_H
#define KILN_LIB_INTERPRETER_ELEMENTWISE_H

#include "Exec.h"
#include "Kernels.h"

namespace kiln::interp::detail {

/// result = f(x) on every element of a float tensor; f takes and returns the
/// compute type (float, or double for f64).
template <class F> LogicalResult floatUnary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0));
  Tensor out = Tensor::alloc(a.kind(), a.shape());
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    using S = typename FT::S;
    loop1(out.dataMut<S>(), a.data<S>(), a.numel(),
          [&](S x) { return FT::enc(f(FT::dec(x))); });
  });
  ex.set(op->getResult(0), std::move(out));
  return mlir::success();
}

/// result = f(x, y) on float tensors (one may be a single element).
template <class F> LogicalResult floatBinary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1));
  Tensor out = Tensor::alloc(a.kind(), broadcastShape(a, b));
  int64_t n = out.numel();
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    using S = typename FT::S;
    loop2(out.dataMut<S>(), a.data<S>(), a.numel() != n, b.data<S>(), b.numel() != n, n,
          [&](S x, S y) { return FT::enc(f(FT::dec(x), FT::dec(y))); });
  });
  ex.set(op->getResult(0), std::move(out));
  return mlir::success();
}

/// result = f(sx, sy, ux, uy) on integer tensors: the operands sign- and
/// zero-extended to 64 bits; the 64-bit result is truncated to the width.
template <class F> LogicalResult intBinary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1));
  Tensor out = Tensor::alloc(a.kind(), broadcastShape(a, b));
  int64_t n = out.numel();
  visitInt(a.kind(), [&](auto it) {
    using IT = decltype(it);
    using S = typename IT::S;
    loop2(out.dataMut<S>(), a.data<S>(), a.numel() != n, b.data<S>(), b.numel() != n, n,
          [&](S x, S y) {
            return IT::store(f(IT::sval(x), IT::sval(y), IT::uval(x), IT::uval(y), IT{}));
          });
  });
  ex.set(op->getResult(0), std::move(out));
  return mlir::success();
}

} // namespace kiln::interp::detail

#endif
