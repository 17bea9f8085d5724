#ifndef KILN_TRITONNVIDIAGPU_OPS
#define KILN_TRITONNVIDIAGPU_OPS

include "kiln/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUTypes.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUOpInterfaces.td"
include "kiln/Dialect/Triton/IR/TritonTypes.td"
include "kiln/Dialect/Triton/IR/TritonAttrDefs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// The same resources as tt's and ttg's ops name (the C++ classes are what
// count), so that kiln's barrier pass and MLIR's alias queries see them.
def TTNG_GlobalMemory : Resource<"::kiln::tt::GlobalMemory">;
def TTNG_SharedMemory : Resource<"::kiln::ttg::SharedMemory">;

def TTNG_TensorOrMemDesc : AnyTypeOf<[TT_Tensor, TTG_MemDescType],
                                     "tensor or shared-memory descriptor">;

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonNvidiaGPU_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Fences
//===----------------------------------------------------------------------===//

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "order generic-proxy shared-memory accesses before async-proxy ones";
  let description = [{
    `fence.proxy.async`: what threads wrote to shared memory becomes visible
    to the wgmma and TMA units that read it next (`bCluster`: for the whole
    cluster). It touches no particular buffer, so it declares no memory
    effects and is therefore never erased, hoisted or sunk.
  }];
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

class TTNG_NamedBarrierOp<string mnemonic> : TTNG_Op<mnemonic> {
  let arguments = (ins I32:$bar, I32:$numThreads);
  let assemblyFormat = "$bar `,` $numThreads attr-dict `:` type($bar) `,` type($numThreads)";
  let hasVerifier = 1;
}

def TTNG_NamedBarrierArriveOp : TTNG_NamedBarrierOp<"named_barrier_arrive"> {
  let summary = "count this warp in at hardware barrier `bar` without waiting";
  let description = [{
    `bar.arrive bar, numThreads`: the barrier completes once `numThreads`
    threads (whole warps) have arrived at it or waited on it. A producer
    warp group signals its consumers this way. Barrier ids are 0 to 15; in a
    kernel with `ttg.warp_specialize`, 0, 1 and 2 + i for each partition i
    are taken by its lowering.
  }];
}

def TTNG_NamedBarrierWaitOp : TTNG_NamedBarrierOp<"named_barrier_wait"> {
  let summary = "arrive at hardware barrier `bar` and wait for it to complete";
  let description = [{
    `bar.sync bar, numThreads`: as `named_barrier_arrive`, then waits until
    `numThreads` threads have arrived; orders the shared and global memory
    accesses of the threads taking part.
  }];
}

//===----------------------------------------------------------------------===//
// Warp-group MMA (wgmma)
//===----------------------------------------------------------------------===//

// A tensor-core dot (kiln/Dialect/Triton/IR/Interfaces.h).
def TTNG_DotLike : NativeOpTrait<"DotLike"> {
  let cppNamespace = "::kiln::tt::traits";
}

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, TTNG_DotLike,
    DeclareOpInterfaceMethods<TTG_ExplicitLayoutOpInterface>,
    TypesMatchWith<"accumulator matches the result", "d", "c", "$_self">]> {
  let summary = "d = a * b + c on the tensor cores of a warp group";
  let description = [{
    `b`, and `a` when it is a memdesc, are read from shared memory; the
    accumulator lives in registers in a `#ttg.nvidia_mma` (version 3)
    layout. With `useC` false, `c` is ignored (d = a * b). With `isAsync`,
    `d` may be used only after a `ttng.warp_group_dot_wait` that lists it.
    `inputPrecision` and `maxNumImpreciseAcc` are those of `tt.dot`.
    Written before layouts (TTIR: `c`, `d` and a tensor `a` without
    encoding), `ttgir-convert-from-ttir` gives the accumulator the layout
    accelerate-matmul would, and a tensor `a` its operand layout.
  }];
  let arguments = (ins
    TTNG_TensorOrMemDesc:$a,
    TTG_MemDescType:$b,
    TT_FpIntTensor:$c,
    Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::kiln::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict
    `:` type($a) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<TTG_ExplicitLayoutOpInterface>]> {
  let summary = "wait until at most `pendings` asynchronous warp-group dots are in flight";
  let description = [{
    Each result is its input, usable once the wait returns: the results of
    the dots waited for and the buffers they read, which may then be
    overwritten. No memory effects are declared, so that it stays in place.
  }];
  let arguments = (ins Variadic<TTNG_TensorOrMemDesc>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<TTNG_TensorOrMemDesc>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TTNG_InitBarrierOp : TTNG_Op<"init_barrier"> {
  let summary = "initialise an mbarrier expecting `count` arrivals per phase";
  let description = [{
    `alloc` is a `1xi64` shared-memory buffer (`mbarrier.init.shared.b64`).
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
                       I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier"> {
  let summary = "invalidate an mbarrier so that its memory may be reused";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TTNG_SharedMemory>]>:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect"> {
  let summary = "tell an mbarrier that `size` more bytes will arrive in this phase";
  let description = [{
    The phase completes only once TMA copies signalling the barrier have
    delivered that many bytes. Does nothing when `pred` is false.
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
                       I32Attr:$size, I1:$pred);
  let assemblyFormat = [{
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  }];
  let hasVerifier = 1;
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments]> {
  let summary = "wait until the mbarrier's phase of parity `phase` completes";
  let description = [{
    Polls `mbarrier.try_wait.parity`. `deps` are buffers that may be
    accessed (by the copies the barrier tracks) until the wait returns.
    Does nothing when `pred` is given and false.
  }];
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
    I32:$phase,
    Optional<I1>:$pred,
    Variadic<TTG_MemDescType>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
  let hasVerifier = 1;
}

def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier"> {
  let summary = "arrive `count` times on an mbarrier";
  let description = [{
    Lowers the mbarrier's pending arrival count of the current phase by
    `count` (at least 1); the phase completes when it reaches zero and its
    expected bytes have arrived. Executed once per CTA (by one elected
    thread), as Triton does; does nothing when `pred` is given and false.
    With kiln's discardable `kiln.warps_per_arrival = n` (a power of two),
    the first thread of every `n` warps arrives instead (1: every warp, 4:
    every warp group; the mbarrier then counts those arrivals): warps that
    each waited for their own asynchronous work release a buffer without
    first meeting at a CTA barrier (kiln's warp-specialised consumers).
    On a view of another CTA's mbarrier (`ttng.map_to_remote_buffer`) the
    arrival is on that CTA's, with release semantics at cluster scope.
  }];
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
    I32Attr:$count,
    Optional<I1>:$pred);
  let assemblyFormat = [{
    $alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive"> {
  let summary = "arrive on an mbarrier once the thread's earlier cp.async copies have landed";
  let description = [{
    Every thread has the mbarrier track the `ttg.async_copy_global_to_local`
    copies it issued before (`cp.async.mbarrier.arrive`): the arrival
    happens when they have all landed. By default the barrier's pending
    count of the current phase is raised by one first, so the arrivals need
    no room in the count the barrier was initialised with; with
    `noIncrement` each thread's arrival counts towards it. Gluon's
    `async_copy.mbarrier_arrive`.
  }];
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$barrier,
    UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// Thread-block clusters
//===----------------------------------------------------------------------===//

def TTNG_ClusterCTARankOp : TTNG_Op<"cluster_cta_rank", [Pure]> {
  let summary = "the CTA's rank in its cluster (0 to ttg.num-ctas - 1)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TTNG_MapToRemoteBufferOp : TTNG_Op<"map_to_remote_buffer", [Pure]> {
  let summary = "view a buffer in the shared memory of CTA `ctaRank` of the cluster";
  let description = [{
    The same allocation in the CTA of rank `ctaRank` (its own rank
    included), as a memdesc in `#ttng.shared_cluster_memory`. Every CTA of
    a cluster runs the same kernel, so the buffer lies at the same place in
    each.
  }];
  let arguments = (ins TTG_MemDescType:$src, I32:$ctaRank);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `,` $ctaRank attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_FenceMBarrierInitReleaseClusterOp : TTNG_Op<"fence_mbarrier_init_release_cluster"> {
  let summary = "make this thread's mbarrier inits visible to the cluster";
  let description = [{
    `fence.mbarrier_init.release.cluster`: before other CTAs arrive on (or
    multicast TMA copies into) this CTA's mbarriers, after a cluster barrier.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "arrive at the cluster's barrier (every thread of every CTA)";
  let description = [{
    `barrier.cluster.arrive`, releasing this thread's memory accesses unless
    `relaxed`; a `ttng.cluster_wait` must follow before the next arrival.
  }];
  let arguments = (ins BoolAttr:$relaxed);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "wait until every thread of the cluster has arrived (acquire)";
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA copies
//===----------------------------------------------------------------------===//

def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local",
                                                [AttrSizedOperandSegments]> {
  let summary = "start a TMA copy of the block at `coord` of a descriptor into a buffer";
  let description = [{
    The copy signals `barrier` with the bytes it delivers; `result` may be
    read once a `ttng.wait_barrier` on it returns. Does nothing when `pred`
    is false. With `multicast`, the CTAs of a cluster that hold the same
    tile of the buffer (its layout's CGA repeats it over them) share the
    copy: each sends part of the tile to all of them, and each one's
    `barrier` receives the whole tile's bytes. Its issuer must know that
    those CTAs no longer read their buffer (the pipeliner's empty
    mbarriers do it); without copies to share it is an ordinary copy.

    With `multicast_mask` (kiln's, for kernels whose CTAs each run the
    program alone: `ttg.cluster-ctas`), this CTA sends the whole block to
    the buffer at the same place in each CTA whose bit is set in the i32
    mask (rank r: bit r; its own included only if set), and each of them
    receives the bytes on its mbarrier at `barrier`'s place.
  }];
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
    Arg<TTG_MemDescType, "", [MemWrite<TTNG_SharedMemory>]>:$result,
    I1:$pred,
    Optional<I32>:$ctaMask,
    UnitAttr:$multicast,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred (`multicast_mask` $ctaMask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMAPrefetchOp : TTNG_Op<"async_tma_prefetch"> {
  let summary = "start bringing the block at `coord` of a descriptor into L2";
  let description = [{
    A hint (`cp.async.bulk.prefetch.tensor`): the block's lines are fetched
    into L2 for a later copy; no shared memory is written and nothing
    waits for it. Does nothing when `pred` is false. Declares no memory
    effects, so that it is never erased as if it did nothing.
  }];
  let arguments = (ins
    TT_TensorDescType:$desc,
    Variadic<I32>:$coord,
    I1:$pred);
  let assemblyFormat = [{
    $desc `[` $coord `]` `,` $pred attr-dict `:` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global"> {
  let summary = "start a TMA copy of a buffer to the block at `coord` of a descriptor";
  let description = [{
    `src` may be written again only after a `ttng.async_tma_store_wait`
    that covers this copy. The descriptor is read (its tensor map) and the
    tensor it describes written.
  }];
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "wait until at most `pendings` TMA stores are still reading shared memory";
  let description = [{
    Declares no memory effects, so that it is never erased or moved.
  }];
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce"> {
  let summary = "start a TMA reduction of a buffer into the block at `coord` of a descriptor";
  let description = [{
    Like `ttng.async_tma_copy_local_to_global`, but each element is
    combined with the one in global memory by `kind`, atomically per
    element with relaxed semantics (`cp.reduce.async.bulk.tensor`).
  }];
  let arguments = (ins
    TT_DescriptorReduceKindAttr:$kind,
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor maps made on the device
//===----------------------------------------------------------------------===//

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>]> {
  let summary = "write a 128-byte TMA tensor map at `desc_ptr` in global memory";
  let description = [{
    Fills the tensor map of a tiled tensor: its base `global_address`, per
    dimension (innermost first, as TMA numbers them) the box a message
    moves, the tensor's extent and the element stride, and the byte stride
    of every dimension but the innermost. `elem_type`, `interleave_layout`,
    `swizzle_mode` and `fill_mode` (0 zeros, 1 NaN for out-of-bounds reads)
    are the device encodings `tensormap.replace` takes. The map may be used
    by TMA only after `ttng.tensormap_fenceproxy_acquire` on it.
  }];
  let arguments = (ins
    TT_Ptr:$desc_ptr,
    TT_Ptr:$global_address,
    Variadic<I32>:$box_dim,
    Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride,
    Variadic<I32>:$element_stride,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,`
    `[` $global_stride `]` `,` `[` $element_stride `]`
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    unsigned getRank() { return getBoxDim().size(); }
  }];
  let hasVerifier = 1;
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [
    MemoryEffects<[MemWrite<TTNG_GlobalMemory>]>]> {
  let summary = "make a tensor map written on the device visible to TMA";
  let description = [{
    The acquire half of the tensor-map proxy fence: after it, TMA copies of
    the executing threads see what `ttng.tensormap_create` wrote at
    `desc_ptr`.
  }];
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "view a tensor map in global memory as a tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

#endif
