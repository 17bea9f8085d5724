//===- Dialect.cpp - the fusedma dialect ----------------------------------===//
#include "FusedMA.h"

#include "FusedMADialect.cpp.inc"

void fusedma::FusedMADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "FusedMAOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "FusedMAOps.cpp.inc"
