//===- TritonGPUEnums.td - ttg enums -------------------------*- tablegen -*-===//
//
// Own file: the enum generator emits every enum of the records it reads,
// and TritonGPUOps.td also reads tt's.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TRITONGPU_ENUMS
#define KILN_TRITONGPU_ENUMS

include "mlir/IR/EnumAttr.td"

// The memory a ttg.barrier orders, as Triton (3.7 and later) names it; the
// bit values are part of the generic form.
def TTG_AddrSpaceLocal : I32BitEnumAttrCaseBit<"Local", 0, "local">;
def TTG_AddrSpaceGlobalRead : I32BitEnumAttrCaseBit<"GlobalRead", 1, "global_read">;
def TTG_AddrSpaceGlobalWrite : I32BitEnumAttrCaseBit<"GlobalWrite", 2, "global_write">;
def TTG_AddrSpaceTensorRead : I32BitEnumAttrCaseBit<"TensorRead", 3, "tensor_read">;
def TTG_AddrSpaceTensorWrite : I32BitEnumAttrCaseBit<"TensorWrite", 4, "tensor_write">;
def TTG_AddrSpaceAttr : I32BitEnumAttr<"AddrSpace", "memory a barrier orders", [
    I32BitEnumAttrCaseNone<"None", "none">, TTG_AddrSpaceLocal, TTG_AddrSpaceGlobalRead,
    TTG_AddrSpaceGlobalWrite, TTG_AddrSpaceTensorRead, TTG_AddrSpaceTensorWrite,
    I32BitEnumAttrCaseGroup<"All", [TTG_AddrSpaceLocal, TTG_AddrSpaceGlobalRead,
                                    TTG_AddrSpaceGlobalWrite, TTG_AddrSpaceTensorRead,
                                    TTG_AddrSpaceTensorWrite], "all">]> {
  let cppNamespace = "::kiln::ttg";
  let genSpecializedAttr = 0;
}

#endif
