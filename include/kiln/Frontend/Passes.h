//===- Passes.h - the kernel-language frontend's passes ---------*- C++ -*-===//
#ifndef KILN_FRONTEND_PASSES_H
#define KILN_FRONTEND_PASSES_H

#include "mlir/Pass/Pass.h"

namespace kiln {

/// The library name of `tt.extern_elementwise` ops that are plugin
/// kernel-language ops (their symbol is the op's name).
inline constexpr llvm::StringLiteral kKernelOpLibrary = "kiln";
/// On a bodiless `tt.func` declaration: the kernel op ("<plugin>.<op>") a
/// `tt.call` of it stands for.
inline constexpr llvm::StringLiteral kKernelOpAttr = "kiln.kernel_op";
/// On such a `tt.call`: its constexpr operands, a JSON object by name.
inline constexpr llvm::StringLiteral kConstantsAttr = "kiln.constants";

// createExpandKernelOps().
#define GEN_PASS_DECL
#include "kiln/Frontend/Passes.h.inc"

// registerFrontendPasses() and registerExpandKernelOps().
#define GEN_PASS_REGISTRATION
#include "kiln/Frontend/Passes.h.inc"

} // namespace kiln

#endif
