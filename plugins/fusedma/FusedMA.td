//===- FusedMA.td - the fusedma dialect and its op ---------*- tablegen -*-===//
//
// Level-2 example plugin: a dialect of one op, defined in ODS like any
// in-tree dialect and registered with kiln at load time.
//
//===----------------------------------------------------------------------===//
#ifndef FUSEDMA_TD
#define FUSEDMA_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def FusedMA_Dialect : Dialect {
  let name = "fusedma";
  let cppNamespace = "::fusedma";
  let summary = "Fused multiply-add, as an example of a plugin dialect";
  let description = [{
    Holds `fusedma.fma` between the `ttir` stage, where the plugin's
    `fusedma-fuse` pass forms it from `arith.mulf` + `arith.addf`, and the
    start of the `ttgir` stage, where `fusedma-lower` turns it into
    `math.fma`. Nothing outside the plugin knows the dialect: IR holding
    it parses only where the plugin is loaded.
  }];
}

class FusedMA_Op<string mnemonic, list<Trait> traits = []>
    : Op<FusedMA_Dialect, mnemonic, traits>;

// Scalars as well as tensors: ttir.reorder-broadcast moves elementwise ops
// ahead of tt.splat, which turns a tensor fma of splats into a scalar one.
def FusedMA_FloatLike : AnyTypeOf<[AnyFloat, RankedTensorOf<[AnyFloat]>],
                                  "float or ranked tensor of floats">;

def FusedMA_FmaOp : FusedMA_Op<"fma",
    [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "elementwise a * b + c, rounded once";
  let description = [{
    `%r = fusedma.fma %a, %b, %c : T` computes `a * b + c` elementwise with
    a single rounding, like `math.fma`. All three operands and the result
    have the same type `T`: a float, or a ranked tensor of floats.

    ```mlir
    %r = fusedma.fma %a, %b, %c : tensor<512xf32>
    ```
  }];
  let arguments = (ins FusedMA_FloatLike:$a, FusedMA_FloatLike:$b,
                       FusedMA_FloatLike:$c);
  let results = (outs FusedMA_FloatLike:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
}

#endif // FUSEDMA_TD
