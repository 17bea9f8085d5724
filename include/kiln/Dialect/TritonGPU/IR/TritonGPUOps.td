#ifndef KILN_TRITONGPU_OPS
#define KILN_TRITONGPU_OPS

include "kiln/Dialect/TritonGPU/IR/TritonGPUDialect.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUTypes.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUEnums.td"
include "kiln/Dialect/Triton/IR/TritonAttrDefs.td"
include "kiln/Dialect/Triton/IR/TritonTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TTG_SharedMemory : Resource<"::kiln::ttg::SharedMemory">;
def TTG_GlobalMemory : Resource<"::kiln::tt::GlobalMemory">;

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonGPU_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Layout conversion
//===----------------------------------------------------------------------===//

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [SameOperandsAndResultShape,
                                                    SameOperandsAndResultElementType,
                                                    Pure]> {
  let summary = "move a tensor's elements to another distributed layout";
  let description = [{
    The same tensor, held in the result type's layout. Lowering picks
    register renaming, warp shuffles or a round trip through shared memory
    from the two layouts.
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a buffer in shared memory";
  let description = [{
    Returns a descriptor of a new buffer, initialised from `src` when given
    (the buffer may then be immutable); without `src` the buffer must be
    `mutable`. Deallocating it with `ttg.local_dealloc` is optional.
  }];
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<I32Attr>:$alignment);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc"> {
  let summary = "free a shared-memory buffer; later uses are undefined";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemFree<TTG_SharedMemory>]>:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load"> {
  let summary = "read a shared-memory buffer into a distributed tensor";
  let description = [{
    The optional `token` orders the read after the asynchronous copy that
    produced it.
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemRead<TTG_SharedMemory>]>:$src,
                       Optional<TTG_AsyncToken>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store"> {
  let summary = "write a distributed tensor into a mutable shared-memory buffer";
  let arguments = (ins TT_Tensor:$src,
                       Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "view of buffer `index` of a multi-buffered allocation";
  let description = [{
    For a `!ttg.memdesc<3x128x64xf16, ...>`, the 128x64 buffer number
    `index` along the leading dimension. No memory is touched.
  }];
  let arguments = (ins TTG_MemDescType:$src, I32:$index);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure]> {
  let summary = "view of a buffer with its dimensions permuted";
  let description = [{
    Dimension `i` of the result is dimension `order[i]` of `src`; the
    result's encoding says how the same bytes are read in that order (for
    `#ttg.nvmma_shared`, `transposed` flips). No memory is touched.
  }];
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "view of a box of a buffer";
  let description = [{
    The elements of `src` from `offsets` on, as many along each dimension
    as the result's shape (Gluon's `slice`); the result keeps the source's
    encoding and allocation shape. Each offset is a multiple of the
    result's extent along its dimension. No memory is touched.
  }];
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `` $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "view of a whole buffer as another element type, shape or layout";
  let description = [{
    The same bytes, from the source's start, read as the result type says
    (Gluon's `reinterpret`); the view is no larger than its source. No
    memory is touched.
  }];
  let arguments = (ins TTG_MemDescType:$src);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous copies (cp.async)
//===----------------------------------------------------------------------===//

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    // The mask and `other` types are not printed: they follow the pointers.
    TypesMatchWith<"mask shape matches src", "src", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "!::llvm::cast<::kiln::ttg::AsyncCopyGlobalToLocalOp>(&$_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other matches the pointee type of src", "src", "other",
                   "::kiln::tt::getPointeeType($_self)",
                   "!::llvm::cast<::kiln::ttg::AsyncCopyGlobalToLocalOp>(&$_op).getOther() || std::equal_to<>()">]> {
  let summary = "start copying the elements a tensor of pointers points to into a buffer";
  let description = [{
    The copy runs in the background: `result` may be read only after a
    `ttg.async_wait` that covers the commit group of the returned token.
    Elements whose `mask` is false are not read and take `other` (zero
    without it). `contiguity` is how many consecutive elements each
    thread copies at once.
  }];
  let arguments = (ins
    Arg<TT_PtrTensor, "", [MemRead<TTG_GlobalMemory>]>:$src,
    Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$result,
    Optional<TT_BoolTensor>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile,
    DefaultValuedAttr<I32Attr, "1">:$contiguity);
  let results = (outs TTG_AsyncToken:$token);
  // As Triton prints it: the buffer's type without its `!ttg.memdesc` prefix.
  let assemblyFormat = [{
    $src `,` $result (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the group of asynchronous copies started so far";
  let description = [{
    The returned token stands for the group; `inputTokens` are the copies
    it contains. No memory effects are declared, so that the op is never
    erased or moved as if it did nothing.
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` commit groups are still in flight";
  let description = [{
    After it, the buffers written by every other committed group may be
    read; the returned token orders such reads (`ttg.local_load ... token`)
    after the wait. Like `ttg.async_commit_group`, it declares no effects.
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Global scratch memory
//===----------------------------------------------------------------------===//

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc", [
    MemoryEffects<[MemAlloc<TTG_GlobalMemory>]>]> {
  let summary = "a program's own `nbytes` of global scratch memory";
  let description = [{
    Each program (CTA) gets its own bytes of the global scratch buffer the
    launcher passes every kernel; `llir.allocate-global-scratch` gives the
    op its offset in the program's slice (`ttg.global_scratch_memory_offset`)
    and the module its per-program size and alignment, which the kernel's
    metadata carries so that the launcher allocates enough.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$nbytes,
                       ConfinedAttr<I32Attr, [IntPositive]>:$alignment);
  let results = (outs Arg<TT_Ptr, "", [MemAlloc<TTG_GlobalMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

def TTG_ThreadIdOp : TTG_Op<"thread_id", [Pure]> {
  let summary = "this thread's index in its program (a kiln op; Triton has none)";
  let description = [{
    The calling thread's index along the program's only axis of threads,
    0 to num-warps * threads-per-warp - 1; in a `ttg.warp_specialize`
    partition, counted from the partition's first thread (its warps index
    as a program of their own would). Not uniform over the program: an
    `scf.if` on it diverges threads, as kernels written with hwx mean it to.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

def TTG_MemoryFenceOp : TTG_Op<"memory_fence"> {
  let summary = "order this thread's memory accesses within `scope`";
  let description = [{
    A fence of the thread's earlier accesses against its later ones, as
    seen by the threads of `scope` (`cta`, `gpu` or `sys`): `acquire`,
    `release` or `acq_rel` (`fence.acq_rel.gpu` on NVIDIA). Declares no
    memory effects, so that it is never erased or moved.
  }];
  let arguments = (ins TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let assemblyFormat = "$sem `,` $scope attr-dict";
  let hasVerifier = 1;
}

def TTG_BarrierOp : TTG_Op<"barrier"> {
  let summary = "CTA-wide barrier (Triton 3.7 and later; 3.6 used gpu.barrier)";
  let description = [{
    Every thread of the CTA waits for the others; `addrSpace` names the
    memory whose accesses it orders (`local`, `global_read`,
    `global_write`, `tensor_read`, `tensor_write`, joined with `|`, or
    `all`). kiln lowers every form to the one CTA barrier that orders all
    of them, as it lowers `gpu.barrier`.
  }];
  let arguments = (ins I32Attr:$addrSpace);
  let assemblyFormat = "custom<AddrSpace>($addrSpace) attr-dict";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "AddrSpace":$addrSpace), [{
    build($_builder, $_state, $_builder.getI32IntegerAttr(int32_t(addrSpace)));
  }]>];
}

//===----------------------------------------------------------------------===//
// Warp specialisation
//===----------------------------------------------------------------------===//

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [
    RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "run partitions of the program on their own warps at once";
  let description = [{
    The default region runs on the warps that reach the op (the module's
    `ttg.num-warps`) and yields the op's results; each partition runs on
    `partitionNumWarps[i]` further warps of the CTA, which idle outside
    warp-specialised regions. Partitions are isolated from above: they see
    only the explicit captures, as their block arguments. The op completes
    when every region has. `requestedRegisters` asks for each partition's
    registers per thread (`setmaxnreg` on NVIDIA); `warpGroupStartIds`, the
    first warp of each partition, is set by `llir.allocate-warp-groups`.

    Printed as Triton 3.6 prints it:
      ttg.warp_specialize(%a, %b) attributes {requestedRegisters = array<i32: 24>}
      default { ... ttg.warp_yield %r : tensor<...> }
      partition0(%x: !ty, %y: !ty) num_warps(1) { ... ttg.warp_return }
      : (!ty, !ty) -> tensor<...>
  }];
  let arguments = (ins Variadic<AnyType>:$explicitCaptures,
                       DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion, SizedRegion<1>:$partitionOpHolder);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The op holding the partition regions (in partitionOpHolder).
    WarpSpecializePartitionsOp getPartitionOp();
    /// The partition regions, in order.
    llvm::MutableArrayRef<mlir::Region> getPartitionRegions();
  }];
}

def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "the partition regions of a ttg.warp_specialize";
  let description = [{
    Printed inside its parent's assembly, never on its own; isolated from
    above so that nothing computed by the default warps leaks into a
    partition except through the captures.
  }];
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let assemblyFormat = "regions attr-dict";
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [Pure, Terminator,
                                           HasParent<"WarpSpecializeOp">]> {
  let summary = "the default region's results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [Pure, Terminator,
                                             HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "the end of a partition";
  let assemblyFormat = "attr-dict";
}

#endif
