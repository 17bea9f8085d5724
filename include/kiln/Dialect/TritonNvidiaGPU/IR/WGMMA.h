//===- WGMMA.h - the accumulator layout of warpgroup MMA --------*- C++ -*-===//
//
// How a wgmma accumulator is laid out over a CTA's warps: accelerate-matmul
// (for tt.dot) and ttng.warp_group_dot written before layouts (for
// ttgir-convert-from-ttir) choose it here, so both agree.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITONNVIDIAGPU_IR_WGMMA_H
#define KILN_DIALECT_TRITONNVIDIAGPU_IR_WGMMA_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "llvm/ADT/SmallVector.h"

namespace kiln::ttng {

/// wgmma's instruction shape [16, N, K] for one CTA's accumulator `tile`
/// ([M, N]) of operands of `element`: the widest N the tile and the warps
/// beside each warp group along M allow.
llvm::SmallVector<unsigned> wgmmaInstrShape(llvm::ArrayRef<int64_t> tile, mlir::Type element,
                                            unsigned numWarps);

/// The accumulator's warps per CTA: warp groups along M while M has rows
/// for them, then along N; all along M when `chained` (the result feeds
/// another product, which reads it as its A operand).
llvm::SmallVector<unsigned> wgmmaWarpsPerCTA(llvm::ArrayRef<int64_t> tile, unsigned numWarps,
                                             bool chained);

} // namespace kiln::ttng

#endif
