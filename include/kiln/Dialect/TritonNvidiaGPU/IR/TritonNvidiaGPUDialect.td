#ifndef KILN_TRITONNVIDIAGPU_DIALECT
#define KILN_TRITONNVIDIAGPU_DIALECT

include "mlir/IR/OpBase.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::kiln::ttng";
  let summary = "NVIDIA-only TTGIR ops (Hopper and later), textually compatible with Triton 3.6";
  let description = [{
    Ops that only NVIDIA GPUs of compute capability 9.0 and later have:
    warp-group MMA (`wgmma`), mbarriers in shared memory, and TMA copies
    through `!tt.tensordesc` descriptors. Their operands are `ttg` types
    and layouts; the dialect defines no types or attributes of its own.
  }];
  let dependentDialects = ["::kiln::tt::TritonDialect", "::kiln::ttg::TritonGPUDialect"];
}

#endif
