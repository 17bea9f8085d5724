//===- Dialect.h - the tt (Triton IR) dialect -------------------*- C++ -*-===//
//
// kiln's implementation of Triton 3.6's `tt` dialect: types, enum
// attributes and ops. Include this header to use any of them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITON_IR_DIALECT_H
#define KILN_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <atomic>

#include "kiln/Dialect/Triton/IR/Dialect.h.inc"
#include "kiln/Dialect/Triton/IR/Enums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Triton/IR/Attrs.h.inc"
#include "kiln/Dialect/Triton/IR/Interfaces.h"
#include "kiln/Dialect/Triton/IR/Types.h"

namespace kiln::tt {
/// The memory a kernel reads and writes through pointers and descriptors.
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<GlobalMemory>"; }
};
} // namespace kiln::tt

#define GET_OP_CLASSES
#include "kiln/Dialect/Triton/IR/Ops.h.inc"

#endif
