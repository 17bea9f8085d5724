#ifndef KILN_TRITONGPU_DIALECT
#define KILN_TRITONGPU_DIALECT

include "mlir/IR/OpBase.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::kiln::ttg";
  let summary = "GPU-level Triton IR (TTGIR), textually compatible with Triton 3.6";
  let description = [{
    Tile IR whose tensors carry a layout encoding: how the elements of a
    tensor are spread over the registers, lanes, warps and CTAs of a
    program (`#ttg.blocked`, `#ttg.slice`, `#ttg.linear`), or how they are
    laid out in shared memory (`#ttg.swizzled_shared`, on `!ttg.memdesc`).
    The module attributes `ttg.num-warps`, `ttg.threads-per-warp`,
    `ttg.num-ctas` and `ttg.target` fix the hardware the layouts describe,
    and every layout in the module is verified against them.
  }];
  let dependentDialects = ["::kiln::tt::TritonDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    // Module (and, for num-warps, tt.func) attributes, as Triton spells them.
    static constexpr ::llvm::StringLiteral kNumWarpsAttr = "ttg.num-warps";
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttr = "ttg.threads-per-warp";
    static constexpr ::llvm::StringLiteral kNumCTAsAttr = "ttg.num-ctas";
    static constexpr ::llvm::StringLiteral kTargetAttr = "ttg.target";
    // kiln's: clusters of this many CTAs, each running the program on its
    // own with one-CTA layouts (`ttg.num-ctas` is then 1). Kernels that
    // manage their CTAs themselves (hwx's) compile so with num_ctas > 1.
    static constexpr ::llvm::StringLiteral kClusterCTAsAttr = "ttg.cluster-ctas";
    // kiln's, on a TTIR module: a plugin's ops have made the kernel one
    // that tells the CTAs of a cluster apart (its rank, another CTA's
    // buffers, cluster barriers), so that its CTAs may each run it alone.
    static constexpr ::llvm::StringLiteral kLoneCTAsAttr = "ttg.lone-ctas";
  }];
}

#endif
