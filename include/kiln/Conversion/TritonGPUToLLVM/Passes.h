//===- Passes.h - TTGIR to the LLVM dialect ---------------------*- C++ -*-===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_PASSES_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kiln {

// createConvertTritonGPUToLLVM().
#define GEN_PASS_DECL
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"

// registerConvertTritonGPUToLLVMPasses().
#define GEN_PASS_REGISTRATION
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"

struct CompileOptions;

/// The conversion of a compile: its patterns and lowering extensions see
/// `options` (plugin options included) in their lowering::Context.
std::unique_ptr<mlir::Pass> createConvertTritonGPUToLLVM(const CompileOptions &options);

} // namespace kiln

#endif
