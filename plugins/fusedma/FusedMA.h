//===- FusedMA.h - the fusedma dialect, op and passes -----------*- C++ -*-===//
//
// Private to the plugin: nothing outside libfusedma.so includes this.
//
//===----------------------------------------------------------------------===//
#ifndef FUSEDMA_FUSEDMA_H
#define FUSEDMA_FUSEDMA_H

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
// Before the generated op declarations, which need a complete OpAsmParser.
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "FusedMADialect.h.inc"

#define GET_OP_CLASSES
#include "FusedMAOps.h.inc"

namespace fusedma {

// createFusedMAFuse() and createFusedMALower().
#define GEN_PASS_DECL
#include "Passes.h.inc"

} // namespace fusedma

#endif
