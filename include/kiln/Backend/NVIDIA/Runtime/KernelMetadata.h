//===- KernelMetadata.h - what a launch needs beside the cubin --*- C++ -*-===//
//
// Reading the metadata (kiln/Base/KernelMetadata.h) of a kernel to launch:
// the JSON Triton writes beside a cubin, checked for what kiln's runtime
// can launch.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_RUNTIME_KERNELMETADATA_H
#define KILN_BACKEND_NVIDIA_RUNTIME_KERNELMETADATA_H

#include "kiln/Base/KernelMetadata.h"

#include "llvm/Support/Error.h"

#include <string>

namespace kiln::runtime {

using kiln::KernelMetadata;
using kiln::TensorDescMeta;

/// Parses Triton's metadata JSON of a kernel to launch; `where` names it in
/// errors. It must name the entry point and ask for one CTA per program.
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
