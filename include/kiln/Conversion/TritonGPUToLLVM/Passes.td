//===- Passes.td - TTGIR to the LLVM dialect ----------------*- tablegen -*-===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_PASSES
#define KILN_CONVERSION_TRITONGPUTOLLVM_PASSES

include "mlir/Pass/PassBase.td"

def AllocateSharedMemory : Pass<"llir-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "give every shared-memory buffer its offset, buffers with disjoint lives sharing bytes";
  let description = [{
    The buffers of `ttg.local_alloc` (live until the last use of the
    descriptor or of a view of it, loops included) and the scratch of ops
    whose lowering exchanges data through shared memory (live while the op
    runs) are placed by greedy first fit, largest first, among the buffers
    live at the same time. Each owning op gets `allocation.offset` (bytes,
    i32), the module `ttg.shared` (the bytes its kernels need), as in
    Triton 3.6's TTGIR at this point. A kernel needing more than the
    target's shared memory is a located error.
  }];
}

def AllocateGlobalScratch : Pass<"llir-allocate-global-scratch", "::mlir::ModuleOp"> {
  let summary = "give every global scratch buffer its offset in a program's slice";
  let description = [{
    Each `ttg.global_scratch_alloc` of a kernel gets its own bytes (aligned
    as it asks) of the slice of global scratch memory each program owns:
    `ttg.global_scratch_memory_offset` (bytes, i32) on the op, and on the
    module `ttg.global_scratch_memory_size` and `_alignment`, which the
    kernel's metadata passes on so that the launcher allocates
    grid-size times that many bytes, as Triton 3.6 does. A `tt.call` of a
    device function that needs scratch holds the callee's whole need at its
    own offset, and the callee's buffers are placed from there.
  }];
}

def InsertBarriers : Pass<"llir-insert-barriers", "::mlir::ModuleOp"> {
  let summary = "insert a CTA barrier between shared-memory accesses that race";
  let description = [{
    Walks each kernel in program order, keeping the byte ranges of shared
    memory read and written since the last barrier, and inserts a
    `gpu.barrier` before an op that writes a range read or written since,
    or reads a range written since (RAW, WAR and WAW between threads).
    Ranges come from `allocation.offset`; an access whose buffer cannot be
    traced, or an op with an unmodelled shared-memory effect, covers all of
    shared memory. `scf.if` joins both branches; loops iterate to a fixed
    point so accesses of one iteration are ordered against the next.
    Scratch users order their own accesses inside their lowering; this
    pass orders them against everything else.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def AllocateWarpGroups : Pass<"llir-allocate-warp-groups", "::mlir::ModuleOp"> {
  let summary = "give each warp-specialised partition its warps and the module its total";
  let description = [{
    The default region of a `ttg.warp_specialize` runs on the module's
    `ttg.num-warps` warps; its partitions get further warps, placed largest
    first after them, each aligned to its size up to a warp group (4
    warps), so a partition of 4 or more warps owns whole warp groups. Each
    op gets `warpGroupStartIds` (kept when it has them and they fit), the
    module `ttg.total-num-warps`: the most warps any op needs, rounded up
    to whole warp groups when the default region has whole warp groups (so
    every warp group can reallocate registers), else `ttg.num-warps`. The
    kernel launches with that many warps (Triton 3.6's `num_warps` in the
    metadata). More than 32 warps is an error.
  }];
}

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

def ForwardStructFields : Pass<"llir-forward-struct-fields", "::mlir::ModuleOp"> {
  let summary = "Read each field of a struct built by llvm.insertvalue from the value inserted";
  let description = [{
    The conversion carries a tensor between ops as an LLVM struct of a
    thread's registers: each op builds it with a chain of `llvm.insertvalue`
    and each user takes it apart with `llvm.extractvalue`. Every extract of
    a field that the chain inserted now reads the inserted value, and the
    chains left without users are erased. One walk per chain, so linear in
    the registers; LLVM's own folding of such chains (SCCP keeps a value per
    field of every struct) grows with their square: 55 s and 5.5 GB for a
    tensor of 2048 registers a thread before.
  }];
}

#endif
