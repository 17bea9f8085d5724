#ifndef KILN_TRITON_DIALECT
#define KILN_TRITON_DIALECT

include "mlir/IR/OpBase.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::kiln::tt";
  let summary = "Triton tile IR (TTIR), textually compatible with Triton 3.6";
  let description = [{
    Tile-level kernel IR: SPMD programs over ranked tensors, pointers into
    global memory and tensor descriptors. kiln's own implementation of the
    op set, types and assembly formats that stock Triton 3.6 prints in its
    `make_ttir` stage, so TTIR dumped by Triton parses unchanged.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif
