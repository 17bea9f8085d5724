#ifndef KILN_TRITONGPU_OPS
#define KILN_TRITONGPU_OPS

include "kiln/Dialect/TritonGPU/IR/TritonGPUDialect.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUTypes.td"
include "kiln/Dialect/Triton/IR/TritonTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TTG_SharedMemory : Resource<"::kiln::ttg::SharedMemory">;

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

#endif
