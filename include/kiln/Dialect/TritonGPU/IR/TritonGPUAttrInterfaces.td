#ifndef KILN_TRITONGPU_ATTR_INTERFACES
#define KILN_TRITONGPU_ATTR_INTERFACES

include "mlir/IR/OpBase.td"

// What every layout encoding answers; `toLinearLayout(shape)` hands the
// encoding to kiln/Layout, which every lowering asks its questions of.

def TTG_LayoutEncodingInterface : AttrInterface<"LayoutEncodingInterface"> {
  let cppNamespace = "::kiln::ttg";
  let description = [{
    A tensor layout, distributed over threads or placed in shared memory.
  }];
  let methods = [
    InterfaceMethod<"Number of tensor dimensions the layout describes.",
                    "unsigned", "getRank">,
    InterfaceMethod<[{
      The CGA layout: for each bit of the CTA id within the cluster, the
      tensor coordinates it moves to (one entry per dimension). Empty for a
      single CTA, the default.
    }], "::llvm::SmallVector<::llvm::SmallVector<int32_t>>", "getCGABases">,
    InterfaceMethod<"Number of CTAs the layout spans (2^|CGA bases|).",
                    "unsigned", "getNumCTAs", (ins), [{}], [{
      return 1u << $_attr.getCGABases().size();
    }]>,
    InterfaceMethod<[{
      The linear layout of a tensor of `shape` in this encoding: inputs
      register, lane, warp, block (distributed) or offset, block (shared),
      outputs dim0..dim<rank-1>. An error when the encoding cannot hold a
      tensor of that shape.
    }], "::llvm::Expected<::kiln::layout::LinearLayout>", "toLinearLayout",
        (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

def TTG_DistributedEncodingInterface
    : AttrInterface<"DistributedEncodingInterface", [TTG_LayoutEncodingInterface]> {
  let cppNamespace = "::kiln::ttg";
  let description = [{
    A layout of a tensor held in registers: each element lives in some
    registers of some lanes of some warps of some CTAs.
  }];
  let methods = [
    InterfaceMethod<"Number of lanes of a warp the layout distributes over.",
                    "unsigned", "getNumLanes">,
    InterfaceMethod<"Number of warps of a CTA the layout distributes over.",
                    "unsigned", "getNumWarps">,
  ];
}

def TTG_SharedEncodingInterface
    : AttrInterface<"SharedEncodingInterface", [TTG_LayoutEncodingInterface]> {
  let cppNamespace = "::kiln::ttg";
  let description = [{
    A layout of a tensor in shared memory: the offset of each element in the
    buffer of a `!ttg.memdesc`.
  }];
}

def TTG_MemorySpaceInterface : AttrInterface<"MemorySpaceInterface"> {
  let cppNamespace = "::kiln::ttg";
  let description = [{
    A memory space a `!ttg.memdesc` may name: a CTA's own shared memory
    (`#ttg.shared_memory`), or one a back end adds (NVIDIA's
    `#ttng.shared_cluster_memory`: another CTA's shared memory in a
    cluster).
  }];
  let methods = [
    InterfaceMethod<"Whether a buffer in this space lies in the CTA's own shared memory "
                    "(allocated, read and written by the CTA's threads).",
                    "bool", "isCTALocal">,
  ];
}

#endif
