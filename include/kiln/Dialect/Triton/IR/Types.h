//===- Types.h - tt dialect types and type helpers --------------*- C++ -*-===//
#ifndef KILN_DIALECT_TRITON_IR_TYPES_H
#define KILN_DIALECT_TRITON_IR_TYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeSupport.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/Triton/IR/Types.h.inc"

namespace kiln::tt {

/// Address space of global memory, the default of `!tt.ptr<T>`.
constexpr int kGlobalAddressSpace = 1;

/// What a pointer-like value points to: `ptr<T>` -> T, `tensor<Nx ptr<T>>`
/// -> `tensor<NxT>`, `ptr<tensor<..>>` -> `tensor<..>`. Null for other types.
mlir::Type getPointeeType(mlir::Type type);

/// An i1 of the same shape as `type` (scalar i1 for a scalar).
mlir::Type getI1SameShape(mlir::Type type);

/// A pointer (or tensor of pointers) to the element type of `type`, same shape.
mlir::Type getPointerTypeSameShape(mlir::Type type);

/// For `ptr<tensor<..xT>, as>`: `ptr<T, as>`.
mlir::Type getBasePointerOfTensorPointer(mlir::Type type);

/// True for `ptr<tensor<...>>` (a block pointer).
bool isTensorPointerType(mlir::Type type);

} // namespace kiln::tt

#endif
