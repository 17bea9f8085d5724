//===- InputFile.h - bounded reading of the files a user names --*- C++ -*-===//
//
// Every file kiln and kiln-opt read on a user's behalf (kernel sources, run
// specs, data and expectation files) goes through these functions. They read
// only regular files, or standard input for "-", and check the size against
// a cap before allocating anything, so /dev/zero, a FIFO or a folder is a
// clear error naming the file instead of a hang or an exhausted machine.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_SUPPORT_INPUTFILE_H
#define KILN_SUPPORT_INPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kiln {

/// The default cap on a text input (a kernel source or a run spec).
inline constexpr uint64_t kDefaultInputSizeLimit = uint64_t(64) << 20;

/// The cap readInputFile applies by default: KILN_MAX_INPUT_SIZE when it is
/// set (an error when it is no size), else kDefaultInputSizeLimit.
llvm::Expected<uint64_t> inputSizeLimit();

/// "4096", "64K", "64M", "4G" (powers of 1024) as bytes; nullopt when the
/// text is not such a size or overflows 64 bits.
std::optional<uint64_t> parseByteSize(llvm::StringRef text);
/// Bytes for a message: "67108864 bytes (64 MiB)".
std::string formatByteSize(uint64_t bytes);

/// The size of `path` when it is a regular file (symbolic links followed).
/// Otherwise an error "cannot read <what> '<path>': <reason>": it does not
/// exist, is a folder, or is not a regular file (a device, FIFO or socket).
/// `what` names the file's role ("kernel file"); it may be empty.
llvm::Expected<uint64_t> regularFileSize(llvm::StringRef path, llvm::StringRef what = "");

/// Reads all of `path`, or of standard input when `path` is "-", as a
/// null-terminated buffer named `path`. A file must be regular and at most
/// `limit` bytes (checked before reading; inputSizeLimit() when not given);
/// standard input is read up to `limit` bytes and refused beyond.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, llvm::StringRef what = "",
              std::optional<uint64_t> limit = std::nullopt);

/// Reads the regular file `path` into `out`, which must be exactly its size.
llvm::Error readInputFileInto(llvm::StringRef path, llvm::MutableArrayRef<uint8_t> out,
                              llvm::StringRef what = "");

} // namespace kiln

#endif
