//===- MatrixAccess.h - 8x8-matrix accesses of 16-bit elements --*- C++ -*-===//
//
// Whether a distributed tensor's registers move to or from a shared buffer
// as four 8x8 matrices of 16-bit elements per instruction (NVIDIA's
// stmatrix and ldmatrix x4), and with which addresses. In such an access a
// thread holds two adjacent elements of one row per matrix (its lane's
// bits 0-1 select the pair in the row, bits 2-4 the row) and lane 8 * m + r
// gives the address of row r of matrix m; each row's 8 elements must be
// one aligned 16-byte run of the buffer. In the transposed form (.trans)
// the thread's pair and lane bits 0-1 pick the row instead, and lane bits
// 2-4 run along it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LAYOUT_MATRIXACCESS_H
#define KILN_LAYOUT_MATRIXACCESS_H

#include "kiln/Layout/Queries.h"

#include <optional>
#include <vector>

namespace kiln::layout {

struct MatrixAccessPlan {
  /// The instruction's transposed form.
  bool transposed = false;
  /// Offsets (elements) each bit of the lane giving an address adds: bits
  /// 0-2 pick the row, bits 3-4 the matrix. They are XORed.
  int64_t laneImages[5];
  /// What each warp bit adds (XORed).
  std::vector<int64_t> warpImages;
  /// One instruction: registers first + 2m and first + 2m + 1 hold matrix
  /// m's pair; `offset` is the registers' part of its addresses.
  struct Access {
    int32_t firstRegister;
    int64_t offset;
  };
  std::vector<Access> accesses;
  /// The offset bits the lane and warp parts may set.
  int64_t threadMask = 0;
};

/// The plan for `toShared` (register, lane, warp[, block] -> offset, as a
/// tensor layout composed with a shared layout's inverse gives it) of a
/// 32-lane warp, or none when its registers do not come as such matrices
/// (fewer than 8 registers, rows that are not aligned 16-byte runs, more
/// than one block).
std::optional<MatrixAccessPlan> planMatrixAccess(const LinearLayout &toShared, bool transposed);

/// A one-round scratch for a conversion of 16-bit elements in which the
/// `matrices` side moves 8x8 matrices (its planMatrixAccess in the
/// `transposed` form or not) and the `vectors` side 16-byte vectors: the
/// rows of the matrices are the vectors, and both sides' wavefronts reach
/// distinct banks. An error when the layouts do not allow it (the vector
/// side's first three registers must be a row, in order).
llvm::Expected<ConversionScratch> matrixConversionScratch(const LinearLayout &matrices,
                                                          const LinearLayout &vectors,
                                                          bool transposed);

} // namespace kiln::layout

#endif
