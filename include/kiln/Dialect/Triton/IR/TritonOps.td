#ifndef KILN_TRITON_OPS
#define KILN_TRITON_OPS

include "kiln/Dialect/Triton/IR/TritonDialect.td"
include "kiln/Dialect/Triton/IR/TritonTypes.td"
include "kiln/Dialect/Triton/IR/TritonAttrDefs.td"
include "kiln/Dialect/Triton/IR/TritonAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/CallInterfaces.td"

def GlobalMemory : Resource<"::kiln::tt::GlobalMemory">;

// Encodings are checked among ranked-tensor operands (and results); scalars
// take no part. See Interfaces.h.
def TT_SameOperandsEncoding : NativeOpTrait<"SameOperandsEncoding"> {
  let cppNamespace = "::kiln::tt::traits";
}
def TT_SameOperandsAndResultEncoding : NativeOpTrait<"SameOperandsAndResultEncoding"> {
  let cppNamespace = "::kiln::tt::traits";
}
def TT_DotLike : NativeOpTrait<"DotLike"> {
  let cppNamespace = "::kiln::tt::traits";
}

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<Triton_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Elementwise, SameOperandsAndResultShape,
                                         TT_SameOperandsAndResultEncoding,
                                         Pure]> {
  let summary = "reinterpret an int64 as a pointer";
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Elementwise, SameOperandsAndResultShape,
                                         TT_SameOperandsAndResultEncoding,
                                         Pure]> {
  let summary = "reinterpret a pointer as an int64";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_BitcastOp : TT_Op<"bitcast", [Elementwise, SameOperandsAndResultShape,
                                     TT_SameOperandsAndResultEncoding,
                                     Pure]> {
  let summary = "reinterpret bits between types of equal width (pointers included)";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Elementwise, SameOperandsAndResultShape,
                                     TT_SameOperandsAndResultEncoding,
                                     Pure]> {
  let summary = "float conversion with an explicit rounding mode (and fp8 types)";
  let description = [{
    Converts between float types. A narrowing conversion must name its
    rounding mode (`rtne` or `rtz`); a widening one must not.
  }];
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

def TT_ClampFOp : TT_Op<"clampf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "clamp x into [min, max]";
  let description = [{
    With `propagateNan = all`, a NaN in `x` gives NaN; with `none`, the
    result follows minnum/maxnum semantics.
  }];
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)";
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_ApproxDivFOp : TT_Op<"approx_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "fast approximate f32 division (Triton 3.9)";
  let description = [{
    `tl.math.fdiv(x, y, approx=True)`: the hardware's approximate division
    (PTX `div.approx.f32`, about 2 ulp). The interpreter divides exactly.
  }];
  let arguments = (ins TT_Float32Like:$x, TT_Float32Like:$y);
  let results = (outs TT_Float32Like:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "high N bits of the unsigned 2N-bit product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
                                   TT_SameOperandsAndResultEncoding,
                                   TypesMatchWith<"result type matches ptr type",
                                                  "result", "ptr", "$_self">]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, elementwise.
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasFolder = 1;
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, TypesMatchWith<"result type matches ptr type",
                                                          "result", "ptr", "$_self">]> {
  let summary = "move a tensor (block) pointer by per-dimension offsets";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def TT_LoadOp : TT_Op<"load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result matches pointee type", "ptr", "result",
                   "::kiln::tt::getPointeeType($_self)">,
    // `other` without `mask` (rejected by the verifier) also has two
    // operands, so test for the mask itself rather than the operand count.
    TypesMatchWith<"mask shape matches ptr", "ptr", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "!::llvm::cast<::kiln::tt::LoadOp>(&$_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other matches pointee type", "ptr", "other",
                   "::kiln::tt::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "load through a pointer, a tensor of pointers or a block pointer";
  let description = [{
    Elements whose `mask` is false are not read and take the value of
    `other` (undefined without it). For block pointers, `boundaryCheck`
    lists the dimensions checked against the parent shape and `padding`
    says what out-of-bounds elements read as.
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$mask, "::mlir::Value":$other)>
  ];
  // `$ptr (, $mask)? (, $other)? <hints> attr-dict : type($ptr)`, where the
  // hints are Triton 3.6's oilist (`cacheModifier = cg evictionPolicy =
  // evict_last`) or 3.9's `cachePolicy` attribute (CacheHints.cpp).
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_StoreOp : TT_Op<"store", [
    MemoryEffects<[MemWrite<GlobalMemory>]>,
    TypesMatchWith<"value matches pointee type", "ptr", "value",
                   "::kiln::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask shape matches ptr", "ptr", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "store through a pointer, a tensor of pointers or a block pointer";
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict);
  // `$ptr, $value (, $mask)? <hints> attr-dict : type($ptr)`, hints as for
  // tt.load (CacheHints.cpp).
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [
    SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic read-modify-write; returns the old value";
  let arguments = (ins TT_AtomicRMWAttr:$atomic_rmw_op, TT_PtrLike:$ptr,
                       TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [
    SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap; returns the old value";
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "fill a tensor with one scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "the only element of a one-element tensor, as a scalar";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  // Triton's form: the result type is the element type, not printed.
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "insert a dimension of size 1 at `axis`";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "reinterpret a tensor with another shape of the same size";
  let description = [{
    Row-major element order is kept unless `allow_reorder` is set, which
    lets the compiler permute elements. `efficient_layout` is a layout hint.
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder, UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType,
                                         TT_SameOperandsAndResultEncoding]> {
  let summary = "grow dimensions of size 1 to a larger size";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands,
                             SameOperandsAndResultElementType]> {
  let summary = "concatenate two tensors along dimension 0 (element order unspecified)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect,
                                 TypesMatchWith<"outLHS and outRHS types match",
                                                "outLHS", "outRHS", "$_self">]> {
  let summary = "split a tensor whose last dimension is 2 into its two halves";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    `result` dimension i is `src` dimension `order[i]`.
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SPMD
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "index of this program on a grid axis";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "number of programs on a grid axis";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, TT_DotLike, TypesMatchWith<"result type matches accumulator",
                                                  "d", "c", "$_self">]> {
  let summary = "d = a * b + c on 2-D (or batched 3-D) tiles";
  let description = [{
    `inputPrecision` says how f32 inputs use tensor cores: `tf32`, `tf32x3`,
    `ieee` (exact), `bf16x3`, `bf16x6`. It is ignored for other inputs.
    `maxNumImpreciseAcc` bounds fp8 accumulation in reduced precision.
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::kiln::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
                                          TypesMatchWith<"result type matches accumulator",
                                                         "d", "c", "$_self">]> {
  let summary = "microscaled matrix multiply: d = scale(a) * scale(b) + c";
  let description = [{
    `a`/`b` hold elements of `lhs`/`rhs` type (fp4 `e2m1` packed two per i8
    along K, or along M (N) when `lhs_k_pack` (`rhs_k_pack`) is false); the
    optional scales are e8m0 exponents, one per 16 or 32 elements of K.
  }];
  let arguments = (ins
    StaticShapeTensorOf<[TT_Float, I8]>:$a,
    StaticShapeTensorOf<[TT_Float, I8]>:$b,
    TT_FloatTensor:$c,
    Optional<StaticShapeTensorOf<[TT_Float, I8]>>:$a_scale,
    Optional<StaticShapeTensorOf<[TT_Float, I8]>>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type,
    TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans and regions applied elementwise
//===----------------------------------------------------------------------===//

def TT_ReduceOp : TT_Op<"reduce", [Pure, SingleBlock, TT_SameOperandsEncoding]> {
  let summary = "reduce tensors along an axis with a combine region";
  let description = [{
    The region takes 2N scalars (N accumulators, then N new elements) and
    yields N with `tt.reduce.return`. Results drop dimension `axis`; a
    rank-1 input reduces to scalars. Printed in generic form, as Triton does.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$srcs, "int":$axis)>];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::RankedTensorType> getInputTypes();
    ::llvm::SmallVector<::mlir::Type> getElementTypes();
  }];
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [HasParent<"ReduceOp">, Pure,
                                                Terminator, ReturnLike]> {
  let summary = "terminator of a tt.reduce combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding,
                               SingleBlock]> {
  let summary = "inclusive associative scan along an axis with a combine region";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$srcs, "int":$axis, "bool":$reverse)>];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::RankedTensorType> getInputTypes();
    ::llvm::SmallVector<::mlir::Type> getElementTypes();
  }];
}

def TT_ScanReturnOp : TT_Op<"scan.return", [HasParent<"ScanOp">, Pure,
                                            Terminator, ReturnLike]> {
  let summary = "terminator of a tt.scan combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [SameOperandsAndResultShape,
                                                    TT_SameOperandsAndResultEncoding,
                                                    RecursiveMemoryEffects]> {
  let summary = "apply a scalar region to every element (or `pack` elements at a time)";
  let description = [{
    The region takes `pack` scalars of each operand's element type and yields
    `pack` scalars of each result's element type with
    `tt.map_elementwise.return`.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [
    HasParent<"MapElementwiseOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of a tt.map_elementwise region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [
    Elementwise, SameVariadicOperandSize, TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call an external library function elementwise";
  let description = [{
    `symbol` from `libpath`/`libname` (e.g. libdevice's `__nv_expf`). A
    `pure` call has no side effects.
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname, StrAttr:$libpath,
                       StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [
    Elementwise, TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "inline assembly applied to groups of `packed_element` elements";
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)";
  let hasVerifier = 1;
}

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "1-D i32 tensor [start, end)";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TypesMatchWith<"mask shape matches src", "src", "mask",
                   "::kiln::tt::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">]> {
  let summary = "count the values of src into bins 0..N-1 (N = result size)";
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolLike>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather elements of src along an axis by an index tensor";
  let description = [{
    `result[i...] = src[i... with index[i...] in dimension axis]`; the result
    has the shape of `indices`.
  }];
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [SameVariadicOperandSize,
                                 MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "print a prefix and values, per program";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "abort with a message unless every element of condition holds";
  let arguments = (ins AnyTypeOf<[I1, TT_BoolTensor]>:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base type follows the block pointer type", "result", "base",
                   "::kiln::tt::getBasePointerOfTensorPointer($_self)">]> {
  let summary = "block pointer into a parent tensor (shape, strides, offsets)";
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "tensor descriptor over a global tensor (shape i32, strides i64)";
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
    DefaultValuedAttr<TT_PaddingOptionAttr, "::kiln::tt::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)";
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [MemoryEffects<[MemRead<GlobalMemory>]>]> {
  let summary = "load one block through a tensor descriptor";
  let description = [{
    Out-of-bounds elements read as the descriptor's padding (zero by default).
  }];
  let arguments = (ins TT_TensorDescType:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  // `$desc [ $indices ] <hints> attr-dict : type($desc) -> type($result)`,
  // hints as for tt.load (CacheHints.cpp).
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "store one block through a tensor descriptor (out-of-bounds elements are dropped)";
  let arguments = (ins TT_TensorDescType:$desc, TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)";
  let hasVerifier = 1;
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomically reduce a block into global memory through a descriptor";
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDescType:$desc,
                       TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)";
  let hasVerifier = 1;
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [MemoryEffects<[MemRead<GlobalMemory>]>]> {
  let summary = "gather rows (x_offsets) starting at column y_offset through a descriptor";
  let arguments = (ins TT_TensorDescType:$desc, StaticShapeTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "scatter rows (x_offsets) starting at column y_offset through a descriptor";
  let arguments = (ins TT_TensorDescType:$desc, StaticShapeTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset, TT_Tensor:$src);
  let assemblyFormat = "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TT_CallOp : TT_Op<"call", [CallOpInterface,
                               DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "direct call of a tt.func";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let builders = [
    OpBuilder<(ins "FuncOp":$callee, CArg<"::mlir::ValueRange", "{}">:$operands), [{
      $_state.addOperands(operands);
      $_state.addAttribute("callee", ::mlir::SymbolRefAttr::get(callee));
      $_state.addTypes(callee.getFunctionType().getResults());
    }]>];
  let extraClassDeclaration = [{
    ::mlir::FunctionType getCalleeType() {
      return ::mlir::FunctionType::get(getContext(), getOperandTypes(), getResultTypes());
    }
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope,
                               CallableOpInterface, FunctionOpInterface,
                               IsolatedFromAbove, OpAsmOpInterface]> {
  let summary = "a kernel or device function";
  let description = [{
    A `public` function is a kernel entry point; its arguments may carry
    `tt.divisibility` and similar hints. Calls between functions use `tt.call`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
      CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs,
      CArg<"::llvm::ArrayRef<::mlir::DictionaryAttr>", "{}">:$argAttrs)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
  // Entry-block types are checked by FunctionOpInterface's own verifier; the
  // region verifier checks every value's layout against the module.
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "return from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

include "kiln/Dialect/Triton/IR/TritonSyncOps.td"

#endif
