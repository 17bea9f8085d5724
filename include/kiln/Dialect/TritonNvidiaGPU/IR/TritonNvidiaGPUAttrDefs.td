#ifndef KILN_TRITONNVIDIAGPU_ATTR_DEFS
#define KILN_TRITONNVIDIAGPU_ATTR_DEFS

include "mlir/IR/AttrTypeBase.td"
include "kiln/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUAttrInterfaces.td"

def TTNG_SharedClusterMemorySpaceAttr
    : AttrDef<TritonNvidiaGPU_Dialect, "SharedClusterMemorySpace",
              [DeclareAttrInterfaceMethods<TTG_MemorySpaceInterface>]> {
  let mnemonic = "shared_cluster_memory";
  let summary = "shared memory of another CTA of the cluster (distributed shared memory)";
  let description = [{
    The memory space of a view `ttng.map_to_remote_buffer` makes: the same
    buffer in the shared memory of a given CTA of the cluster. Only
    mbarrier arrivals go through such a view.
  }];
}

#endif
