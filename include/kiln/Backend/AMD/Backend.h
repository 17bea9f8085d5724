//===- Backend.h - the AMD back end -----------------------------*- C++ -*-===//
#ifndef KILN_BACKEND_AMD_BACKEND_H
#define KILN_BACKEND_AMD_BACKEND_H

#include "kiln/Pipeline/Backend.h"

namespace kiln::amd {

/// The back end of `hip:<arch>` targets: its stage list so far (make_ttir,
/// the neutral part of make_ttgir); no lowering or code generator yet.
const Backend &backend();

} // namespace kiln::amd

#endif
