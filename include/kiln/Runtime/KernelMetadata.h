//===- KernelMetadata.h - what a launch needs beside the cubin --*- C++ -*-===//
//
// The facts about a compiled kernel that its launcher needs, read from the
// JSON that Triton 3.6 writes beside a cubin (only these keys are read; the
// others are ignored).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_KERNELMETADATA_H
#define KILN_RUNTIME_KERNELMETADATA_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::runtime {

/// One `tensordesc_meta` entry: how to encode the CUtensorMap of a tensor
/// descriptor argument (the kernel's descriptor arguments, in order).
struct TensorDescMeta {
  int swizzle = 0;  ///< CUtensorMapSwizzle: 0 none, 1 32 B, 2 64 B, 3 128 B
  int elemSize = 0; ///< bytes
  int elemType = 0; ///< Triton's (device) numbering of tensor-map element types
  std::vector<int64_t> blockSize; ///< the TMA box, outermost first
  bool fp4Padded = false;
};

struct KernelMetadata {
  std::string name;              ///< the .entry to launch
  int numWarps = 4;              ///< block = 32 * numWarps threads
  int numCtas = 1;
  int64_t shared = 0;            ///< dynamic shared memory, bytes
  int64_t globalScratchSize = 0; ///< bytes per program; 0: a null pointer
  int64_t globalScratchAlign = 1;
  int64_t profileScratchSize = 0;
  int64_t profileScratchAlign = 1;
  std::optional<int> arch;       ///< target.arch, when given (90)
  std::vector<TensorDescMeta> tensorDescs; ///< `tensordesc_meta`
};

/// Parses Triton's metadata JSON; `where` names it in errors.
llvm::Expected<KernelMetadata> parseKernelMetadata(llvm::StringRef json, llvm::StringRef where);
/// Reads it from a file.
llvm::Expected<KernelMetadata> loadKernelMetadata(llvm::StringRef path);

/// A kernel ready to load: the cubin (or PTX, which the driver compiles)
/// and its metadata.
struct CompiledKernel {
  std::string image;
  KernelMetadata metadata;
};

/// Reads `cubinPath`, and the metadata from `metadataPath` or, when that is
/// empty, from the cubin's name with .json for its extension (as Triton's
/// cache keeps them).
llvm::Expected<CompiledKernel> loadCompiledKernel(llvm::StringRef cubinPath,
                                                  llvm::StringRef metadataPath);

} // namespace kiln::runtime

#endif
