//===- Passes.td - the kernel-language frontend's passes ----*- tablegen -*-===//
#ifndef KILN_FRONTEND_PASSES
#define KILN_FRONTEND_PASSES

include "mlir/Pass/PassBase.td"

def ExpandKernelOps : Pass<"ttir-expand-kernel-ops", "::mlir::ModuleOp"> {
  let summary = "Expand plugin kernel-language ops called from Triton kernels";
  let description = [{
    A `@triton.jit` kernel calls a plugin's elementwise op
    (`from kiln.language import mathx`, `mathx.softplus(x)`) as a
    `tt.extern_elementwise` of library "kiln" whose symbol is the op's name.
    Each is replaced by what the op's builder (kiln::OpRegistry) emits at
    its location, through a kiln::KernelBuilder. An op no loaded plugin
    declares, or a builder whose result is not of the type the kernel
    expects, is a located error.
  }];
}

#endif
