//===- TensorMap.h - CUtensorMaps for tensor descriptor arguments -*- C++ -*-===//
//
// On sm_90 a tensor descriptor argument is a 128-byte CUtensorMap passed by
// value, followed by the tensor's shape (i32 each) and strides (i64 each).
// The map is encoded on the host with cuTensorMapEncodeTiled from the
// argument's tensor (a dense row-major buffer) and the kernel's
// tensordesc_meta entry, as Triton 3.6's launcher does. Planning the call
// needs no GPU, so every bad shape, block or alignment is found before one
// is touched.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_RUNTIME_TENSORMAP_H
#define KILN_BACKEND_NVIDIA_RUNTIME_TENSORMAP_H

#include "kiln/RunSpec/RunSpec.h"
#include "kiln/Backend/NVIDIA/Runtime/KernelMetadata.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>

namespace kiln::runtime {

inline constexpr unsigned kTensorMapBytes = 128;
using TensorMapBytes = std::array<uint8_t, kTensorMapBytes>;

/// The arguments of one cuTensorMapEncodeTiled call (its enums as numbers).
struct TensorMapRequest {
  int dataType = 0; ///< CUtensorMapDataType (the host's numbering)
  unsigned rank = 0;
  uint64_t address = 0;
  uint64_t globalDim[5] = {};     ///< innermost dimension first
  uint64_t globalStrides[4] = {}; ///< bytes, of dimensions 1..rank-1
  uint32_t boxDim[5] = {};
  uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  int interleave = 0;   ///< CU_TENSOR_MAP_INTERLEAVE_NONE
  int swizzle = 0;      ///< CUtensorMapSwizzle
  int l2Promotion = 2;  ///< CU_TENSOR_MAP_L2_PROMOTION_L2_128B, as Triton
  int oobFill = 0;      ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zeros)
};

/// The encode call for descriptor argument `arg` whose tensor is at device
/// address `address`; a clear error when the argument and the kernel's
/// metadata disagree or TMA cannot address the tensor.
llvm::Expected<TensorMapRequest> planTensorMap(const interp::ArgSpec &arg,
                                               const TensorDescMeta &meta, uint64_t address);

/// Triton's device numbering of tensor-map element types to the host's.
int hostTensorMapDataType(int deviceType);

} // namespace kiln::runtime

#endif
