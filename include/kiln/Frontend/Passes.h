//===- Passes.h - the kernel-language frontend's passes ---------*- C++ -*-===//
#ifndef KILN_FRONTEND_PASSES_H
#define KILN_FRONTEND_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kiln {

/// The library name of `tt.extern_elementwise` ops that are plugin
/// kernel-language ops (their symbol is the op's name).
inline constexpr llvm::StringLiteral kKernelOpLibrary = "kiln";

// createExpandKernelOps().
#define GEN_PASS_DECL
#include "kiln/Frontend/Passes.h.inc"

// registerFrontendPasses() and registerExpandKernelOps().
#define GEN_PASS_REGISTRATION
#include "kiln/Frontend/Passes.h.inc"

} // namespace kiln

#endif
