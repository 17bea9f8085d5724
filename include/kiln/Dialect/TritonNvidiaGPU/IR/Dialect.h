//===- Dialect.h - the ttng (TritonNvidiaGPU IR) dialect --------*- C++ -*-===//
//
// kiln's implementation of Triton 3.6's `ttng` dialect: the Hopper ops of
// TTGIR (warp-group MMA, mbarriers, TMA copies). Include this header to use
// any of them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H
#define KILN_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/TritonNvidiaGPU/IR/Attrs.h.inc"

#define GET_OP_CLASSES
#include "kiln/Dialect/TritonNvidiaGPU/IR/Ops.h.inc"

namespace kiln::ttng {
/// Whether `type` views the shared memory of another CTA of the cluster
/// (made by ttng.map_to_remote_buffer), not the CTA's own.
bool isRemote(ttg::MemDescType type);
} // namespace kiln::ttng

#endif
