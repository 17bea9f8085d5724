//===- Dialect.cpp - the ttng dialect -------------------------------------===//
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::ttng;

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/TritonNvidiaGPU/IR/Attrs.cpp.inc"

void TritonNvidiaGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/TritonNvidiaGPU/IR/Attrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/TritonNvidiaGPU/IR/Ops.cpp.inc"
      >();
}

bool SharedClusterMemorySpaceAttr::isCTALocal() const { return false; }

bool kiln::ttng::isRemote(kiln::ttg::MemDescType type) {
  return isa<SharedClusterMemorySpaceAttr>(type.getMemorySpace());
}
