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

} // namespace kiln

#endif
