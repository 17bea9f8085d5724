//===- RegisterBudget.h - one or two CTAs per SM for warp specialisation -===//
//
// A warp-specialised kernel on sm_90 launches with a register count per
// thread and moves registers between its warp groups (setmaxnreg). The
// lowering plans for one CTA per SM (the whole register file) and, when a
// plan for two exists, leaves it in the PTX as a marker comment; the ptx
// stage takes that plan when shared memory holds two CTAs and ptxas fits
// the kernel in it without spilling.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_REGISTERBUDGET_H
#define KILN_BACKEND_NVIDIA_REGISTERBUDGET_H

#include "kiln/Base/Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln::nvidia {

/// Whether two CTAs of `sharedBytes` of shared memory each fit one sm_90
/// SM: 228 KB, of which the driver reserves 1 KB per resident CTA.
constexpr bool twoCTAsFitShared(int64_t sharedBytes) {
  return 2 * (sharedBytes + 1024) <= 228 * 1024;
}

/// The marker: the launch registers per thread (`.maxnreg`) of the one-CTA
/// plan and of the two-CTA plan, each op's default-warp share in both
/// (`setmaxnreg.inc`), and, when the lowering restores the launch count
/// after each op (`restored`), that restore in both.
std::string twoCTAsMarker(unsigned launch, unsigned launch2,
                          llvm::ArrayRef<std::pair<unsigned, unsigned>> defaults, bool restored);

/// `ptx` with the marker's two-CTA plan put in place when `sharedBytes` of
/// shared memory per CTA lets two CTAs share an SM and ptxas assembles the
/// result without spills or a stack frame; `ptx` itself otherwise
/// (including when no ptxas is found: the stage does not need one).
std::string chooseRegisterBudget(llvm::StringRef ptx, int64_t sharedBytes,
                                 const CompileOptions &options);

} // namespace kiln::nvidia

#endif
