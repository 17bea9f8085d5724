//===- DotPlan.h - which registers feed each multiply of a tt.dot -*- C++ -*-===//
//
// A tt.dot is lowered register by register: for tensor cores, one
// mma.sync per (C tile, K step), each reading some registers of A, B and C;
// for scalar FMAs, one fma per (C register, k). Which registers those are is
// answered here from the operands' linear layouts, never from index
// formulas: the instruction's hardware fragment says which coordinates one
// instruction covers, the layouts say which register holds each.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_DOTPLAN_H
#define KILN_ANALYSIS_DOTPLAN_H

#include "kiln/Layout/LinearLayout.h"

#include <vector>

namespace kiln::layout {

/// An operand of mma.sync.aligned.m16n8k<K>: A (16 x K), B (K x 8) or the
/// accumulator C/D (16 x 8).
enum class MmaOperand { A, B, C };

/// The PTX ISA's fragment of one m16n8 mma.sync operand whose A and B
/// elements are `bitWidth` bits wide (16: k16, 8: k32, 32 (tf32): k8): a
/// layout (slot, lane) -> (dim0 = row, dim1 = column), where slot is the
/// element's place in the instruction's register list, 32 / bitWidth
/// elements per 32-bit register, low bits first (for C: 4 elements).
LinearLayout mmaV2Fragment(MmaOperand operand, unsigned bitWidth);

/// One mma.sync: the registers of the lowered A, B and C tensors it reads,
/// in fragment slot order (4p, 2p and 4 of them, p = 32 / bitWidth). Its D
/// goes back to the same C registers.
struct MmaV2Step {
  llvm::SmallVector<int32_t> a, b, c;
};

/// The mma.sync steps of a tt.dot with operand layouts `a` (..., M, K), `b`
/// (..., K, N) and accumulator layout `c` (..., M, N), in execution order:
/// the K steps of one C tile are consecutive and ascending. Within one
/// instruction K may be permuted; A and B always agree on it. `cCopies[r]`
/// is the register whose result C register r takes (registers holding the
/// same element share one). An error says why the layouts do not fit the
/// instruction (for example lanes not placed as the fragment needs).
struct MmaV2Plan {
  std::vector<MmaV2Step> steps;
  llvm::SmallVector<int32_t> cCopies;
};
llvm::Expected<MmaV2Plan> planMmaV2(const LinearLayout &a, const LinearLayout &b,
                                    const LinearLayout &c, unsigned bitWidth);

/// The scalar product of a tt.dot on the FMA path: for each C register
/// that holds an element first (cCopies[r] == r), the (A register,
/// B register) pairs for k = 0 .. K-1, in that order.
struct FmaPlan {
  std::vector<std::vector<std::pair<int32_t, int32_t>>> terms;
  llvm::SmallVector<int32_t> cCopies;
};
llvm::Expected<FmaPlan> planFma(const LinearLayout &a, const LinearLayout &b,
                                const LinearLayout &c);

} // namespace kiln::layout

#endif // KILN_ANALYSIS_DOTPLAN_H
