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
    through `!tt.tensordesc` descriptors, thread-block clusters. Their
    operands are `ttg` types and layouts; the dialect's one attribute is
    the memory space of another CTA's shared memory.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::kiln::tt::TritonDialect", "::kiln::ttg::TritonGPUDialect"];
}

#endif
