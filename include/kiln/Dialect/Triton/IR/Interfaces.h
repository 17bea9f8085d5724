//===- Interfaces.h - how tt meets the dialects of layout encodings -*- C++ -*-===//
//
// tt knows nothing of the encodings tensors carry at the GPU level; the
// dialect that defines them (ttg) implements these interfaces, and tt's
// verifiers call them through the encoding's dialect.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITON_IR_INTERFACES_H
#define KILN_DIALECT_TRITON_IR_INTERFACES_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/OpDefinition.h"

namespace kiln::tt {

/// The result encodings of tt ops that derive them from an operand's.
class DialectInferLayoutInterface
    : public mlir::DialectInterface::Base<DialectInferLayoutInterface> {
public:
  DialectInferLayoutInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// Encoding of a reduction's result along `axis` of a tensor encoded `src`.
  virtual mlir::Attribute inferReduceEncoding(mlir::Attribute src, unsigned axis) const = 0;

  /// Encoding of `tt.expand_dims` along `axis` of a tensor encoded `src`;
  /// failure, reported through `emitError`, if `src` cannot be expanded.
  virtual mlir::FailureOr<mlir::Attribute>
  inferExpandDimsEncoding(mlir::Attribute src, unsigned axis,
                          llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const = 0;
};

/// Checks of value types against the hardware a module targets (the
/// layout of a tensor against the module's warp size, warp and CTA counts).
/// Called for every value of a tt.func: for a tensor with an encoding, on
/// the encoding's dialect; for any other type, on the type's dialect.
class DialectVerifyLayoutInterface
    : public mlir::DialectInterface::Base<DialectVerifyLayoutInterface> {
public:
  DialectVerifyLayoutInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// `emitError` starts a diagnostic on the op that defines the value (or
  /// owns the block argument), already naming the value.
  virtual mlir::LogicalResult
  verifyValueType(mlir::Type type, mlir::Operation *op,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const = 0;
};

namespace traits {

namespace detail {
mlir::LogicalResult verifySameEncoding(mlir::Operation *op, bool withResults);
} // namespace detail

/// All ranked-tensor operands have the same encoding (scalars are ignored).
template <typename ConcreteType>
class SameOperandsEncoding
    : public mlir::OpTrait::TraitBase<ConcreteType, SameOperandsEncoding> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifySameEncoding(op, /*withResults=*/false);
  }
};

/// All ranked-tensor operands and results have the same encoding.
template <typename ConcreteType>
class SameOperandsAndResultEncoding
    : public mlir::OpTrait::TraitBase<ConcreteType, SameOperandsAndResultEncoding> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifySameEncoding(op, /*withResults=*/true);
  }
};

/// A matrix product d = a * b + c whose result layout is its instruction's
/// (tt.dot, and the dots of back ends such as ttng.warp_group_dot): layout
/// propagation starts from it.
template <typename ConcreteType>
class DotLike : public mlir::OpTrait::TraitBase<ConcreteType, DotLike> {};

} // namespace traits
} // namespace kiln::tt

#endif
