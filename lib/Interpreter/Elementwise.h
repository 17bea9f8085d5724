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

/// result = f(sx, ux, bits) on an integer tensor (the operand sign- and
/// zero-extended to 64 bits); the result kind may differ from the operand's.
template <class F> LogicalResult intUnary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0));
  ElemKind to = elemKindOf(op->getResult(0).getType());
  Tensor out = Tensor::alloc(to, a.shape());
  visitInt(a.kind(), [&](auto it) {
    using IT = decltype(it);
    const auto *src = a.data<typename IT::S>();
    visitInt(to, [&](auto ot) {
      using OT = decltype(ot);
      auto *dst = out.dataMut<typename OT::S>();
      for (int64_t i = 0; i < a.numel(); ++i)
        dst[i] = OT::store(f(IT::sval(src[i]), IT::uval(src[i]), unsigned(IT::bits)));
    });
  });
  ex.set(op->getResult(0), std::move(out));
  return mlir::success();
}

/// Integer functions (IntFunctions.cpp): libdevice's, by their libdevice
/// names, and the bit counts of the math dialect (Ctz).
enum class IntFn {
  Popc, Clz, Ctz, Ffs, Brev, Abs, MulHi, UMulHi, Min, Max, UMin, UMax,
  HAdd, RHAdd, UHAdd, URHAdd, Mul24, UMul24, Sad, USad, BytePerm,
};

/// A libdevice integer function and its element types.
struct IntFnSig {
  IntFn fn;
  llvm::SmallVector<ElemKind, 3> args;
  ElemKind result;
};

/// `name` is a libdevice symbol without its `__nv_` prefix ("popcll").
std::optional<IntFnSig> lookupIntFunction(llvm::StringRef name);

/// Runs `fn` on the op's operands (any integer width for the unary and
/// binary functions; sad and byte_perm take i32).
LogicalResult execIntFunction(Exec &ex, Operation *op, IntFn fn);

} // namespace kiln::interp::detail

#endif
