//===- Dialect.cpp - the ttng dialect -------------------------------------===//
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

using namespace mlir;
using namespace kiln::ttng;

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.cpp.inc"

void TritonNvidiaGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/TritonNvidiaGPU/IR/Ops.cpp.inc"
      >();
}
