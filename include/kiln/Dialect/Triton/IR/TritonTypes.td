#ifndef KILN_TRITON_TYPES
#define KILN_TRITON_TYPES

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "kiln/Dialect/Triton/IR/TritonDialect.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Triton_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PointerType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer into an address space (1 = global)";
  let description = [{
    `!tt.ptr<T>` points to a `T` in global memory; `!tt.ptr<T, N>` names
    address space N. `!tt.ptr<tensor<...>>` is a block (tensor) pointer made
    by `tt.make_tensor_ptr`.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a tiled view of a global tensor";
  let description = [{
    `!tt.tensordesc<tensor<128x64xf16>>`: the block type each
    `tt.descriptor_load`/`store` moves. The shorthand
    `!tt.tensordesc<128x64xf16>` of Triton 3.8 and later is accepted too,
    and printed when a context parsed no other (docs/ttgir.md).
    Triton records the signedness of an integer block
    (`!tt.tensordesc<tensor<64xui32>>` over a `!tt.ptr<i32>`): it selects
    signed or unsigned min/max in `tt.descriptor_reduce`, while the values
    loaded and stored stay signless.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The block type with a signless element type: the type of the tensors
    /// moved through the descriptor and of the elements of its base pointer.
    ::mlir::RankedTensorType getSignlessBlockType() const;
  }];
}

// Element type classes, as Triton groups them. Tensors always have a static
// shape: Triton never makes a dynamic one, and the verifiers count elements.
def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16, F32, F64], "floating-point">;
def TT_FloatTensor : StaticShapeTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_Float32Like : AnyTypeOf<[F32, StaticShapeTensorOf<[F32]>]>;

def TT_BoolTensor : StaticShapeTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : StaticShapeTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, StaticShapeTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, StaticShapeTensorOf<[I64]>]>;

def TT_Ptr : Type<CPred<"::llvm::isa<::kiln::tt::PointerType>($_self) && "
                        "!::llvm::isa<::mlir::RankedTensorType>("
                        "::llvm::cast<::kiln::tt::PointerType>($_self).getPointeeType())">,
                  "pointer to a scalar", "::kiln::tt::PointerType">;
def TT_PtrTensor : StaticShapeTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_TensorPtr : Type<CPred<"::llvm::isa<::kiln::tt::PointerType>($_self) && "
                              "::llvm::isa<::mlir::RankedTensorType>("
                              "::llvm::cast<::kiln::tt::PointerType>($_self).getPointeeType()) && "
                              "::llvm::cast<::mlir::RankedTensorType>(::llvm::cast<"
                              "::kiln::tt::PointerType>($_self).getPointeeType()).hasStaticShape()">,
                        "pointer to a tensor block", "::kiln::tt::PointerType">;

def TT_FpIntTensor : StaticShapeTensorOf<[TT_Float, TT_Int]>;
def TT_Tensor : StaticShapeTensorOf<[TT_Float, TT_Int, TT_Ptr]>;

// Any value a Triton kernel computes with.
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

#endif
