//===- Passes.td - the NVIDIA back end's ttgir passes -------*- tablegen -*-===//
//
// The ttgir passes only NVIDIA GPUs run: tensor-core choices (mma.sync,
// wgmma), TMA (descriptor layouts, lowering descriptor accesses to TMA
// copies and mbarriers), cp.async software pipelining and the proxy fences
// they need. The NVIDIA stage list (lib/Backend/NVIDIA/Backend.cpp) places
// them; their names keep the `ttgir-*` of the stage they run in.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_TRANSFORMS_PASSES
#define KILN_BACKEND_NVIDIA_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def AccelerateMatmul : Pass<"ttgir-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "Put tt.dot on the tensor cores: wgmma on sm_90, mma.sync from sm_80";
  let description = [{
    Chooses, as Triton 3.6's tritongpu-accelerate-matmul does, the MMA
    version of every `tt.dot` from the module's `ttg.target`: version 3
    (wgmma) on sm_90 when the dot is rank 2, the warps come in groups of
    four, M is a multiple of 64 and N of 8; otherwise version 2
    (mma.sync) from sm_80 (sm_89 for fp8). Operand types: f16, bf16, fp8
    (e4m3, e5m2), i8, and f32 with `inputPrecision = tf32`; ieee f32 and
    f64 dots, and dots smaller than one instruction, keep their blocked
    layout for the FMA lowering.

    Version 3: instrShape [16, N, 256/bits] with the largest wgmma N that
    divides the tile and fits the warps along N; warps go along M first
    (all along M when the result feeds another dot, as in attention). B
    is written to an `#ttg.nvmma_shared` buffer whose swizzle is the
    largest of 128/64/32 bytes dividing its contiguous rows (K-major for
    types other than 16-bit, which wgmma cannot transpose); A too, unless
    it is computed in registers, then it is converted to the register
    `#ttg.dot_op` layout. The dot becomes `ttng.warp_group_dot`.

    Version 2: instrShape [16, 8]; warps split between M and N so that the
    repetitions along both stay balanced (all along M, or N, with a chained
    dot); operands are converted to `#ttg.dot_op` layouts with
    kWidth = max(32 / bits, 1).

    The accumulator is converted into the MMA layout and the result back,
    for ttgir-remove-layout-conversions to propagate.
  }];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect",
                           "::kiln::ttng::TritonNvidiaGPUDialect"];
}

def FenceInsertion : Pass<"ttgir-fence-insertion", "::mlir::ModuleOp"> {
  let summary = "Fence generic-proxy shared-memory writes before wgmma reads them";
  let description = [{
    wgmma reads shared memory through the async proxy, which does not see
    what threads stored through the generic proxy (`st.shared`, cp.async)
    until a `fence.proxy.async`. Like Triton 3.6's
    triton-nvidia-gpu-fence-insertion, puts a `ttng.fence_async_shared`
    right before every `ttng.warp_group_dot` one of whose shared operands
    lives in a buffer that registers or cp.async write: a `ttg.local_alloc`
    with an initial value, or one that `ttg.local_store` or
    `ttg.async_copy_global_to_local` write (through views). Buffers only
    TMA writes need no fence. The NVIDIA stage list runs it from sm_90 on.
  }];
  let dependentDialects = ["::kiln::ttng::TritonNvidiaGPUDialect"];
}

def Pipeline : Pass<"ttgir-pipeline", "::mlir::ModuleOp"> {
  let summary = "Software-pipeline the loads of dot loops with cp.async and TMA";
  let description = [{
    For every `scf.for` whose body holds a dot (`tt.dot`, or
    `ttng.warp_group_dot`) fed by `tt.load`s of the same body (through a
    `ttg.local_alloc`, or a `ttg.convert_layout` to a `#ttg.dot_op`
    layout), the loads that can be asynchronous become
    `ttg.async_copy_global_to_local` into a ring of `num-stages` buffers
    allocated before the loop (a loop's `tt.num_stages` attribute overrides
    the option; 1 or less leaves the loop alone):

    - the first `num-stages - 1` iterations' copies are issued before the
      loop, iteration `i + num-stages - 1`'s at the end of iteration `i`,
      one commit group per load, predicated off (zero-filled) past the trip
      count;
    - iteration `i` reads slot `i mod num-stages` through
      `ttg.memdesc_index`, waiting for load `j` of `L` where it is first
      read (`ttg.async_wait {num = L - 1 - j + L * (num-stages - 2)}`;
      reads next to one another share a wait): a wgmma reads the slot
      itself (or a `ttg.memdesc_trans` view of it), a dot operand in
      registers comes from `ttg.local_load` (the ring then has the
      `#ttg.swizzled_shared` layout Triton gives mma operands);
    - the address computation of the copies (pure ops of the body and the
      loop-carried values they depend on) is recomputed one iteration
      group ahead; a carried value needed only for the copies is carried in
      its advanced form alone;
    - the rings must fit in the target's shared memory beside every other
      buffer of the kernel (counted as if all were live at once): a loop
      whose rings would not gets fewer stages, down to 2, then leaves its
      largest loads synchronous, so that a kernel Triton fits, kiln fits;
    - a `tt.descriptor_load` of the loop body (of any loop, with or
      without a dot; a rank-reducing one too) whose block has a swizzled
      nvmma_shared layout streams into a ring of TMA copies instead, read
      in place when its every user is a `ttg.local_alloc` in that layout,
      otherwise with a `ttg.local_load` of the slot where it stood: each slot has an mbarrier (a `3x1xi64`
      ring for three stages, initialised for one arrival before the loop,
      invalidated after it); a copy is `ttng.barrier_expect` of the block's
      bytes then `ttng.async_tma_copy_global_to_local`, both predicated off
      past the trip count; a read waits with `ttng.wait_barrier` on its
      slot's mbarrier with the parity of the ring's round, carried by the
      loop and flipped whenever the read slot wraps to 0, and needs no
      proxy fence before a wgmma;
    - `ttng.warp_group_dot` becomes asynchronous with a
      `ttng.warp_group_dot_wait` after it: `pendings = 1` when the dot is
      the loop's only one, reads only ring slots or loop invariants and its
      result feeds only the next iteration's accumulator (the copies of
      iteration `i` overwrite the slot read by iteration `i - 1`, whose dot
      that wait retired), otherwise 0; a later wgmma whose result is only
      the next iteration's value of an argument read after the first
      wgmma's wait is not waited for in its own iteration: that wait lists
      the argument and so retires it (attention's P @ V runs on while the
      next Q @ K is issued); a `ttng.fence_async_shared` orders the copies
      before a wgmma that reads them.

    A load stays synchronous when its threads move fewer than 4 contiguous
    bytes each (axis info and layout), when its `other` is not zero
    (cp.async fills masked elements with zero), when it is volatile or
    through a block pointer, when it has users other than those above, or
    when its address depends on anything but pure ops of the body, the
    induction variable, loop-carried values and loop invariants. The
    NVIDIA stage list runs it from sm_80 on (cp.async).
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "3",
           "Buffers per pipelined load (the kernel's num_stages)">,
  ];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect",
                           "::kiln::ttng::TritonNvidiaGPUDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def OptimizeAccumulatorInit : Pass<"ttgir-optimize-accumulator-init", "::mlir::ModuleOp"> {
  let summary = "Fold a select of a zero accumulator into wgmma's use_acc flag";
  let description = [{
    A `ttng.warp_group_dot` whose accumulator is `arith.select %c, zero,
    %acc` with a scalar condition (the restart of a tile in a loop fused by
    `ttgir-fuse-nested-loops`) takes `%acc` with `useC = !%c` (and-ed with
    a `useC` it has); `select %c, %acc, zero` gives `useC = %c`. The select
    would read every accumulator register in each iteration, which the
    pipeliner's wgmma still in flight owns. Triton 3.6 runs its
    tritongpu-optimize-accumulator-init for Blackwell's MMA.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def OptimizeDescriptorEncoding
    : Pass<"ttgir-optimize-descriptor-encoding", "::mlir::ModuleOp"> {
  let summary = "Give tensor descriptor blocks the nvmma_shared layout TMA writes";
  let description = [{
    Triton 3.6's triton-nvidia-optimize-descriptor-encoding, for targets
    with TMA (cuda:90 and later): every `!tt.tensordesc` whose block has no
    encoding (kernel arguments, descriptors made in the kernel, loop-carried
    ones) gets the `#ttg.nvmma_shared` encoding Triton picks when no user
    asks for another: the widest swizzle (128, 64 or 32 bytes) that divides
    the bytes of a contiguous row, none when the block has fewer than 8
    rows; not transposed. Kernel signatures follow. The swizzle is the one
    the launcher encodes into the tensor map (`tensordesc_meta`).
  }];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect"];
}

def TMALowering : Pass<"ttgir-tma-lowering", "::mlir::ModuleOp"> {
  let summary = "Lower descriptor ops to TMA copies and mbarriers, in-kernel descriptors to tensor maps";
  let description = [{
    Triton 3.6's triton-nvidia-tma-lowering for `tt.descriptor_load` and
    `tt.descriptor_store` (cuda:90 and later; the block must already have
    its nvmma_shared encoding). A load becomes a buffer in the block's
    layout and a one-arrival mbarrier: `ttng.init_barrier`, then
    `ttng.barrier_expect` of the block's bytes, `ttng.async_tma_copy_global_to_local`,
    `ttng.wait_barrier` on phase 0, `ttng.inval_barrier`, and a
    `ttg.local_load` into the load's layout. A store copies its value into
    such a buffer (`ttg.local_alloc`), makes the writes visible to the
    async proxy (`ttng.fence_async_shared`), and issues
    `ttng.async_tma_copy_local_to_global` followed by
    `ttng.async_tma_store_wait {pendings = 0}`; `tt.descriptor_reduce`
    likewise with `ttng.async_tma_reduce`. `tt.make_tensor_descriptor`
    becomes 128 bytes of global scratch (`ttg.global_scratch_alloc`), a
    `ttng.tensormap_create` filling them (innermost dimension first, byte
    strides, the TMA box, zero or NaN padding), the acquire fence
    `ttng.tensormap_fenceproxy_acquire` and
    `ttng.reinterpret_tensor_descriptor`. A descriptor made inside an
    `scf.for` (directly or through `scf.if`) writes its map into the next
    slot of a ring of num_stages + 1 maps, stepped by a counter the
    enclosing loops carry, so that no TMA copy still in flight from an
    earlier pass reads a map being rewritten. Gathers and scatters (TMA
    gather4, sm_100) are left alone.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3",
           "The kernel's num_stages (a loop's tt.num_stages may ask more): a tensor "
           "map made in a loop cycles through that many slots and one more">,
  ];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect",
                           "::kiln::ttng::TritonNvidiaGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def OverlapTileEpilogue : Pass<"ttgir-overlap-tile-epilogue", "::mlir::ModuleOp"> {
  let summary = "Store a warp-specialised tile loop's output under the next tile's first wgmma";
  let description = [{
    For a tile loop in a `ttg.warp_specialize` default region (the
    consumers of a warp-specialised persistent matmul) whose pass runs a K
    loop of wgmmas with the same bounds for every tile, waits for all of
    them (`ttng.warp_group_dot_wait {pendings = 0}`), narrows the
    accumulator with `arith.truncf` and then only stores the narrowed tile
    (register code, `ttg.local_store`, `ttg.barrier`, proxy fences, TMA
    stores and their waits, `tt.store`; no mbarrier operation), when the K
    loop reads no global memory before its wgmma: under an
    `scf.if` on the K loop running at all (the original loop in its else
    branch), the narrowed tile and the integer and float values the stores
    use are carried into the next pass, whose K loop's first step is
    peeled, with the previous tile's stores right after its wgmma is
    issued; the last tile's stores follow the loop. The tensor cores then
    work while a tile goes out; the carried tile is dead during the rest of
    the K loop.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def LowerWarpSpecialize : Pass<"llir-lower-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "run each ttg.warp_specialize region on its own warps (named barriers, setmaxnreg)";
  let description = [{
    After the LLVM conversion, which keeps `ttg.warp_specialize` with its
    regions: warps past `ttg.num-warps` wait in a dispatch loop at named
    barrier 1; the default warps pass each op's captures and number through
    shared memory, run the default region, and join the partitions at the
    same barrier; returns send the workers home. CTA barriers become named
    barriers of the warps that reach them (0 for the default warps, 2 + i
    for partition i), thread ids in a partition count from its first warp,
    and `requestedRegisters` becomes `.maxnreg` at launch plus
    `setmaxnreg.dec` per worker warp group and `setmaxnreg.inc` for the
    default warps. A kernel without the op is left as it is.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def CheckMBarriers : Pass<"llir-check-mbarriers", "::mlir::ModuleOp"> {
  let summary = "Reject mbarrier waits that provably never complete";
  let description = [{
    Follows each mbarrier a block initialises through the straight-line
    code after its `ttng.init_barrier` (arrivals, expect-tx bytes, the
    bytes of TMA copies signalling it) and rejects a `ttng.wait_barrier`
    on a constant phase parity whose phase cannot have completed by then:
    every warp of the CTA runs the same code, and arrivals after a wait
    cannot happen before its first warp passes it, so such a wait hangs
    the GPU. Gives up on a barrier (no error) where anything else could
    signal it: a region or call between, a predicate that is not constant,
    another use of the buffer, a program of several CTAs, warp
    specialisation. Runs first in the llir stage, so Gluon's TTGIR is
    checked too.
  }];
}

def WarpSpecialize : Pass<"ttgir-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "Split tt.warp_specialize loops into a TMA producer warp and consumer warps";
  let description = [{
    For each outermost `scf.for` marked `tt.warp_specialize` (Triton's
    `tl.range(..., warp_specialize=True)`) whose `tt.descriptor_load`s all
    stream (a descriptor made outside the loop, an nvmma_shared block,
    only loops around the load), the loop becomes a `ttg.warp_specialize`:
    partition 0 (one warp, `requestedRegisters` 24) issues every load as a
    TMA copy into a ring of `num-stages` slots (fewer when the rings would
    not fit in shared memory) after waiting on the slot's `empty`
    mbarrier; the default region (the module's warps) runs the loop with
    each load replaced by a wait on the slot's `ready` mbarrier and a read
    of the slot (in place for wgmma, else into registers), then arrives on
    `empty`. Slot and phase come from a step counter per load's loop,
    carried through the loop nest. The epilogue stays in the default
    region. Other loops are left to `ttgir-pipeline`.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3", "Slots per ring (a loop's tt.num_stages overrides)">,
  ];
  let dependentDialects = ["::kiln::ttng::TritonNvidiaGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif
