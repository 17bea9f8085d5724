#ifndef KILN_TRITONGPU_TYPES
#define KILN_TRITONGPU_TYPES

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "kiln/Dialect/TritonGPU/IR/TritonGPUDialect.td"

class TTG_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TTG_MemDescType : TTG_TypeDef<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "descriptor of a buffer in shared memory";
  let description = [{
    `!ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>`: a view of
    `shape` elements laid out by a shared encoding in a memory space.
    Without `mutable` the buffer is written once, when it is allocated.
    `allocShape` is the shape of the whole allocation the view lies in; it
    is printed last, and only when it differs from `shape`. The encoding
    may describe fewer (trailing) dimensions than the shape has: leading
    dimensions index buffers of a multi-buffered allocation.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding, "::mlir::Attribute":$memorySpace,
                        "bool":$mutableMemory, ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        "::mlir::Attribute":$memorySpace, CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, memorySpace,
                   mutableMemory, shape);
    }]>];
  let extraClassDeclaration = [{
    // ShapedType: a memdesc always has a static shape, so both are trivial.
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(::std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AsyncToken : TTG_TypeDef<"AsyncToken", "async.token"> {
  let summary = "token ordering an asynchronous copy before its uses";
  let hasCustomAssemblyFormat = 1;
}

#endif
