#ifndef KILN_TRITONGPU_ATTR_DEFS
#define KILN_TRITONGPU_ATTR_DEFS

include "mlir/IR/AttrTypeBase.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUDialect.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUAttrInterfaces.td"

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// The CGA layout is kept flattened, `rank` entries per basis, and printed
// as Triton 3.6 prints it: `CGALayout = [[...], ...]`, only when it is not
// the single-CTA default.
defvar CGABasesParam = OptionalArrayRefParameter<"int32_t",
    "CGA layout bases, flattened (rank entries each)">;

defvar DistributedTraits = [
  DeclareAttrInterfaceMethods<TTG_LayoutEncodingInterface>,
  DeclareAttrInterfaceMethods<TTG_DistributedEncodingInterface>];
defvar SharedTraits = [
  DeclareAttrInterfaceMethods<TTG_LayoutEncodingInterface>,
  TTG_SharedEncodingInterface];

//===----------------------------------------------------------------------===//
// Distributed encodings
//===----------------------------------------------------------------------===//

def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncoding", "blocked", DistributedTraits> {
  let summary = "each thread owns a tile; lanes, warps and CTAs tile it in turn";
  let description = [{
    `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
    warpsPerCTA = [4, 1], order = [1, 0]}>`: a thread holds a
    `sizePerThread` tile of contiguous elements, the lanes of a warp tile
    it `threadsPerWarp` times, the warps `warpsPerCTA` times; `order` lists
    the dimensions fastest first. A tensor larger than the CTA tile wraps
    around (more registers per thread), a smaller one is replicated. Every
    entry is a power of two.
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order,
    CGABasesParam:$cgaLayout);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<unsigned>":$sizePerThread,
                     "::llvm::ArrayRef<unsigned>":$threadsPerWarp,
                     "::llvm::ArrayRef<unsigned>":$warpsPerCTA,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get(context, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ::llvm::ArrayRef<int32_t>{});
    }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncoding", "slice", DistributedTraits> {
  let summary = "a distributed parent layout with one dimension squeezed out";
  let description = [{
    `#ttg.slice<{dim = 1, parent = #blocked}>`: the layout of a tensor that
    lacks dimension `dim` of `parent`, as a reduction along `dim` produces
    and `tt.expand_dims` consumes. Threads that differ only along `dim` in
    the parent hold the same elements.
  }];
  let parameters = (ins "unsigned":$dim,
                        "::kiln::ttg::DistributedEncodingInterface":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_LinearEncodingAttr : TTG_Attr<"LinearEncoding", "linear", DistributedTraits> {
  let summary = "a distributed layout given by its linear-layout bases";
  let description = [{
    `#ttg.linear<{register = [[0, 1]], lane = [[0, 2], ...], warp = [...],
    block = []}>`: for each bit of the register, lane, warp and block
    (CTA) index, the tensor coordinates it moves to; any index maps to the
    XOR of the bases of its set bits. Each basis moves along at most one
    dimension, and the bases cover every coordinate.
  }];
  // Bases flattened, `numDims` entries each.
  let parameters = (ins "unsigned":$numDims,
                        OptionalArrayRefParameter<"int32_t">:$registerBases,
                        OptionalArrayRefParameter<"int32_t">:$laneBases,
                        OptionalArrayRefParameter<"int32_t">:$warpBases,
                        OptionalArrayRefParameter<"int32_t">:$blockBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_NvidiaMmaEncodingAttr
    : TTG_Attr<"NvidiaMmaEncoding", "nvidia_mma", DistributedTraits> {
  let summary = "the accumulator layout of NVIDIA's tensor-core instructions";
  let description = [{
    `#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1],
    instrShape = [16, 128, 16]}>`. Version 2 (mma.sync, sm_80): instrShape
    [16, 8] (a leading 1 per batch dimension), one warp's m16n8 fragment.
    Version 3 (wgmma, sm_90): instrShape [16, N, K], rank 2; each group of
    four warps along M computes a 64xN tile, so warpsPerCTA[0] is a
    multiple of 4. Warps tile the fragment warpsPerCTA times.
  }];
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        CGABasesParam:$cgaLayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_DotOperandEncodingAttr
    : TTG_Attr<"DotOperandEncoding", "dot_op", DistributedTraits> {
  let summary = "an operand of a tt.dot, held in registers";
  let description = [{
    `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`: operand A
    (opIdx 0, M x K) or B (opIdx 1, K x N) of a `tt.dot` whose result has
    the layout `parent`. With a `#ttg.nvidia_mma` parent (tensor cores) each
    thread holds `kWidth` consecutive elements along K; with a version 3
    parent only A can be in registers (wgmma reads B from shared memory).
    With a `#ttg.blocked` parent (scalar FMAs, `kWidth` absent, printed
    without it) each thread holds the whole K extent of its rows of A
    (columns of B).
  }];
  // kWidth 0: absent (blocked parents).
  let parameters = (ins "unsigned":$opIdx, "::kiln::ttg::DistributedEncodingInterface":$parent,
                        "unsigned":$kWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings and the memory space
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr
    : TTG_Attr<"SwizzledSharedEncoding", "swizzled_shared", SharedTraits> {
  let summary = "XOR-swizzled shared-memory layout";
  let description = [{
    `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`:
    rows along `order[0]` (the contiguous dimension) are stored in groups
    of `vec` elements; in row r the group index is XORed with
    `(r / perPhase) % maxPhase` to spread accesses over the banks.
    `vec`, `perPhase` and `maxPhase` are powers of two.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        CGABasesParam:$cgaLayout);
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get(context, vec, perPhase, maxPhase, order, ::llvm::ArrayRef<int32_t>{});
    }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_NVMMASharedEncodingAttr
    : TTG_Attr<"NVMMASharedEncoding", "nvmma_shared", SharedTraits> {
  let summary = "the swizzled shared-memory layout wgmma and TMA read";
  let description = [{
    `#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
    elementBitWidth = 16}>`: rows of `swizzlingByteWidth` (0, 32, 64 or 128)
    bytes along the contiguous dimension (the last one; the second-to-last
    when `transposed`); in each 8-row tile the 16-byte chunks of row r are
    XORed with r / perPhase % maxPhase. `fp4Padded = true` pads each 8 bytes
    of packed fp4 to 16. The encoding describes `rank` (default 2) trailing
    dimensions, printed only when it is not 2 and there is no CGALayout.
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        "unsigned":$layoutRank, CGABasesParam:$cgaLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedLinearEncodingAttr
    : TTG_Attr<"SharedLinearEncoding", "shared_linear", SharedTraits> {
  let summary = "a shared-memory layout given by its linear-layout bases";
  let description = [{
    `#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = []},
    alignment = 16>`: for each bit of an element's offset in the CTA's
    buffer, the tensor coordinates it moves to (any offset maps to the XOR
    of the bases of its set bits; a basis may move along several
    dimensions, as swizzles do); `block` splits the tensor over the CTAs of
    a cluster, in tensor coordinates. Every element of the tile lies at one
    offset. `alignment` (bytes, a power of two, 16 when absent) is where the
    buffer starts, for hardware that reads swizzles from the address.
  }];
  // Bases flattened, `numDims` entries each.
  let parameters = (ins "unsigned":$numDims,
                        ArrayRefParameter<"int32_t">:$offsetBases,
                        OptionalArrayRefParameter<"int32_t">:$blockBases,
                        "unsigned":$alignment);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_PaddedSharedEncodingAttr
    : TTG_Attr<"PaddedSharedEncoding", "padded_shared", SharedTraits> {
  let summary = "a shared-memory layout with padding between runs of elements";
  let description = [{
    `#ttg.padded_shared<[16:+4, 64:+8] {order = [0, 1], shape = [64, 64]}>`
    or `#ttg.padded_shared<[32:+4] {offset = [[0, 1], ...], block = []}>`
    (Gluon's PaddedSharedLayout): elements are placed by a linear layout
    (offset bases, or the identity over `shape` with `order` fastest
    first), then after every `interval` offsets `padding` unused elements
    are inserted (summed where several intervals end), which spreads rows
    over the banks. Intervals and paddings are powers of two.
  }];
  // Bases flattened, `numDims` entries each; `order` and `shape` only when
  // the bases are the identity written that way (printed so).
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        "unsigned":$numDims,
                        ArrayRefParameter<"int32_t">:$offsetBases,
                        OptionalArrayRefParameter<"int32_t">:$blockBases,
                        OptionalArrayRefParameter<"unsigned">:$order,
                        OptionalArrayRefParameter<"int64_t">:$shape);
  let extraClassDeclaration = [{
    /// (log2 interval, log2 padding) of each pair.
    ::llvm::SmallVector<std::pair<unsigned, unsigned>> getPaddingLog2() const;
    /// Elements a buffer of `elements` logical ones spans, its pads included.
    int64_t getPaddedSize(int64_t elements) const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory",
    [DeclareAttrInterfaceMethods<TTG_MemorySpaceInterface>]> {
  let summary = "the memory space of a CTA's shared memory";
  let hasCustomAssemblyFormat = 1;
}

#endif
