#ifndef KILN_TRITONGPU_OP_INTERFACES
#define KILN_TRITONGPU_OP_INTERFACES

include "mlir/IR/OpBase.td"

def TTG_ExplicitLayoutOpInterface : OpInterface<"ExplicitLayoutOpInterface"> {
  let cppNamespace = "::kiln::ttg";
  let description = [{
    A ttg/ttng op that may be written before layouts exist (in TTIR, as a
    plugin or an explicit kernel writes it) and whose tensors need layouts
    of the op's own choosing, not the default blocked one (warpgroup MMA's
    accumulator). `ttgir-convert-from-ttir` asks it: first for its results'
    layouts, once its operands' producers have theirs, then for the type
    each tensor operand must have (a convert_layout is inserted where it
    differs).
  }];
  let methods = [
    InterfaceMethod<[{
      Gives the results their layouts for a program of `numWarps` warps of
      `threadsPerWarp` threads over `numCTAs` CTAs; an error (emitted) when
      the op cannot be laid out so.
    }], "::mlir::LogicalResult", "assignLayouts",
      (ins "unsigned":$numWarps, "unsigned":$threadsPerWarp, "unsigned":$numCTAs)>,
    InterfaceMethod<"The type tensor operand `index` must have, given the results' layouts.",
      "::mlir::Type", "requiredOperandType", (ins "unsigned":$index)>,
  ];
}

#endif
