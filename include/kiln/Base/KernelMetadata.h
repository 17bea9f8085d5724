//===- KernelMetadata.h - what a launcher needs beside a binary -*- C++ -*-===//
//
// The facts about a compiled kernel that Triton 3.6's launcher reads from
// the JSON beside a cubin: its entry name, launch shape, dynamic shared
// memory, the sizes of the two hidden scratch buffers and its TMA
// descriptors. kiln writes them with the same keys, so that Triton's
// launcher can launch kiln's binaries. One model for the code generators
// that fill it in, the runtime that launches with it and the tools.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BASE_KERNELMETADATA_H
#define KILN_BASE_KERNELMETADATA_H

#include "kiln/Base/Options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// What the launcher needs to encode the CUtensorMap of one tensor
/// descriptor argument (Triton 3.6's `tensordesc_meta` entries).
struct TensorDescMeta {
  int swizzle = 0;  ///< CUtensorMapSwizzle (0 none .. 3 128 B)
  int elemSize = 0; ///< bytes
  int elemType = 0; ///< Triton's (device) tensor-map element type number
  std::vector<int64_t> blockSize; ///< the TMA box, outermost first
  bool fp4Padded = false;
  bool operator==(const TensorDescMeta &o) const {
    return swizzle == o.swizzle && elemSize == o.elemSize && elemType == o.elemType &&
           blockSize == o.blockSize && fp4Padded == o.fp4Padded;
  }
};

struct KernelMetadata {
  std::string name;  ///< the `.entry` name
  int numWarps = 0;  ///< block size = warpSize * numWarps
  int numCtas = 1;
  int warpSize = 32;
  int64_t shared = 0; ///< dynamic shared memory, bytes
  int64_t tmemSize = 0;
  int64_t globalScratchSize = 0;
  int64_t globalScratchAlign = 1;
  int64_t profileScratchSize = 0;
  int64_t profileScratchAlign = 1;
  int ptxVersion = 0; ///< e.g. 90 for PTX ISA 9.0; 0 before the ptx stage
  /// One entry per `!tt.tensordesc` kernel argument passed as a TMA
  /// descriptor (cuda:90 and later), in argument order.
  std::vector<TensorDescMeta> tensorDescs;
  /// The compute capability the JSON's `target.arch` names, when read from one.
  std::optional<int> arch;

  /// False until a stage has filled it in.
  bool known() const { return numWarps > 0; }

  /// The JSON Triton's launcher reads (keys as Triton 3.6 writes them).
  std::string toJSON(const CompileOptions &options) const;

  /// One comment line carrying the metadata, put first in kiln's LLVM IR
  /// (`commentLeader` ";") and PTX ("//") artifacts, so that a compile that
  /// starts from them (`--from llir|ptx`) still knows it.
  std::string toComment(llvm::StringRef commentLeader) const;
  /// The metadata of such a line in `text`, if it has one.
  static std::optional<KernelMetadata> fromComment(llvm::StringRef text);
  /// Parses Triton's metadata JSON (the keys toJSON writes; others are
  /// ignored; absent ones keep Triton's defaults). `where` names the text in
  /// errors, each of which says which key is wrong.
  static llvm::Expected<KernelMetadata> fromJSON(llvm::StringRef json, llvm::StringRef where);
};

} // namespace kiln

#endif
