//===- Passes.td - the kernel-language frontend's passes ----*- tablegen -*-===//
#ifndef KILN_FRONTEND_PASSES
#define KILN_FRONTEND_PASSES

include "mlir/Pass/PassBase.td"

def ExpandKernelOps : Pass<"ttir-expand-kernel-ops", "::mlir::ModuleOp"> {
  let summary = "Expand plugin kernel-language ops called from Triton kernels";
  let description = [{
    A `@triton.jit` kernel calls a plugin's ops (`from kiln.language import
    hwx`) in one of two encodings stock Triton's frontend can create: an
    elementwise op (`mathx.softplus(x)`) as a `tt.extern_elementwise` of
    library "kiln" whose symbol is the op's name; any other op as a
    `tt.call` of a bodiless `tt.func` marked `kiln.kernel_op = "<op>"`,
    its constexprs as a JSON object in the call's `kiln.constants`, each
    non-tensor plugin value (a buffer, a barrier) as a `!tt.ptr<i8>`
    placeholder. Each is replaced by what the op's builder
    (kiln::OpRegistry) emits at its location, through a
    kiln::KernelBuilder; the real type of a plugin value then replaces the
    placeholder wherever loops and branches carry it. An op no loaded plugin
    declares, a builder whose result is not of the type the kernel expects,
    a plugin value reaching an op that cannot take it (a noinline
    function, a loop bound) and a loop carrying two kinds of value are
    located errors.
  }];
}

#endif
