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
    `make_ttir` stage, so TTIR dumped by Triton parses unchanged; also the
    ops and spellings of Triton 3.7-3.9 (docs/ttgir.md, "Spellings").
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// Spellings that Triton changed after 3.6, and which of them this
    /// context has parsed. kiln prints Triton 3.6's spelling unless every
    /// one it parsed was the newer (docs/ttgir.md, "Spellings").
    enum class Spelling { DescriptorType, CacheHints };
    void noteParsed(Spelling what, bool newer);
    bool printsNewer(Spelling what) const;

  private:
    // Bit 0: the 3.6 form was parsed; bit 1: the newer form was.
    std::atomic<unsigned> parsedSpellings[2] = {0, 0};

  public:
  }];
}

#endif
