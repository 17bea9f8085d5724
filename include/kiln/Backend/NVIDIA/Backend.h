//===- Backend.h - the NVIDIA back end --------------------------*- C++ -*-===//
#ifndef KILN_BACKEND_NVIDIA_BACKEND_H
#define KILN_BACKEND_NVIDIA_BACKEND_H

#include "kiln/Pipeline/Backend.h"

namespace kiln::nvidia {

/// The back end of `cuda:<capability>` targets.
const Backend &backend();

/// Gives the neutral LLVM lowering the cuda TargetInfo and the lowering of
/// NVIDIA's own ops (LoweringExtension.h); once per process.
void registerLowering();

} // namespace kiln::nvidia

#endif
