//===- Cache.h - on-disk cache of compiled artefacts ------------*- C++ -*-===//
//
// Entries are keyed by a SHA-256 over everything that decides a compile's
// output: kiln itself (hostIdentity), the input IR, the compile options, the stage, the
// effective pipeline (with provenance) and every loaded plugin's name,
// version and the hashes of its files, so a rebuilt plugin never serves a
// stale artefact. Each entry carries its key and a checksum over key and
// payload; an entry that is not a regular file of bounded size, holds another
// key, or is corrupt is a miss (and is removed), never served, never a hang.
// Writes go to a temporary file that is renamed into place, so readers never
// see half an entry.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PIPELINE_CACHE_H
#define KILN_PIPELINE_CACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln {

class Cache {
public:
  /// KILN_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME or
  /// ~/.cache) + "/kiln"; empty when there is none (no cache then).
  static std::string defaultDirectory();

  /// What identifies this build of kiln for the key: the host ABI string
  /// (kiln and LLVM versions) and the path, size and modification time of
  /// the kiln library, so a rebuilt kiln never reads its predecessor's entries.
  static std::string hostIdentity();

  /// The largest entry read or written.
  static constexpr uint64_t kMaxEntrySize = uint64_t(256) << 20;

  explicit Cache(std::string directory) : dir(std::move(directory)) {}

  /// Hex SHA-256 of the parts, each length-prefixed so that no two
  /// different lists of parts collide.
  static std::string key(llvm::ArrayRef<llvm::StringRef> parts);

  /// The payload stored under `key`, if there is a sound entry. When an
  /// entry exists but is not used, `whyNot` (if given) receives the reason.
  std::optional<std::string> lookup(llvm::StringRef key, std::string *whyNot = nullptr) const;
  llvm::Error store(llvm::StringRef key, llvm::StringRef payload) const;

  /// Where the entry of `key` lives.
  std::string pathFor(llvm::StringRef key) const;

private:
  std::string dir;
};

} // namespace kiln

#endif
