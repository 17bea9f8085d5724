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
/// On such a `tt.call`: its constexpr operands, a JSON object by name (on
/// a scope's region: a dictionary).
inline constexpr llvm::StringLiteral kConstantsAttr = "kiln.constants";
/// On a `tt.call` of a scope op: "begin" (entering `with`) or "end"
/// (leaving it). On the `scf.execute_region` the ops between become: the
/// scope op's name.
inline constexpr llvm::StringLiteral kScopeAttr = "kiln.scope";
/// On a scope region while its builder runs (one left in place is an error).
inline constexpr llvm::StringLiteral kScopeBuiltAttr = "kiln.scope_built";

// createExpandKernelOps().
#define GEN_PASS_DECL
#include "kiln/Frontend/Passes.h.inc"

// registerFrontendPasses() and registerExpandKernelOps().
#define GEN_PASS_REGISTRATION
#include "kiln/Frontend/Passes.h.inc"

} // namespace kiln

#endif
