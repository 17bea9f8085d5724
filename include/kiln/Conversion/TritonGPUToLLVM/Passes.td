//===- Passes.td - TTGIR to the LLVM dialect ----------------*- tablegen -*-===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_PASSES
#define KILN_CONVERSION_TRITONGPUTOLLVM_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTritonGPUToLLVM : Pass<"llir-convert-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lower TTGIR to the LLVM dialect and the target's intrinsics dialect";
  let description = [{
    The `llir` stage's conversion (Triton 3.6's `-convert-triton-gpu-to-llvm`
    for the ops it covers so far): every tensor with a distributed layout
    becomes an LLVM struct of one thread's registers, in the order of its
    linear layout's register bases, and each op is rewritten per register
    with the layout engine computing the element each register holds. The
    kernel becomes an `llvm.func` with Triton's ABI. The target comes from
    the module's `ttg.target` (`cuda:<cc>`: NVVM). An op without a lowering
    yet is a located error naming it.
  }];
}

#endif
