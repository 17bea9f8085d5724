//===- SharedLibrary.h - what the loader checks around dlopen ---*- C++ -*-===//
//
// A plugin is foreign code: before dlopen the loader reads the file's ELF
// headers itself (dlopen maps a truncated file and dies of SIGBUS), and after
// it, it checks every pointer the plugin hands over against the segments the
// dynamic linker mapped, so that a wild pointer is an error, not a crash.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_SHAREDLIBRARY_H
#define KILN_PLUGIN_SHAREDLIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// The largest file the loader opens as a plugin.
constexpr uint64_t kMaxPluginFileSize = uint64_t(1) << 30;

/// What the dynamic symbol table of a checked file defines.
struct SharedLibraryExports {
  bool kilnEntry = false;   ///< kilnGetPluginInfo
  bool tritonEntry = false; ///< tritonGetPluginInfo: a plugin for Triton itself
};

/// Checks, by reading it, that `path` is a regular file of at most
/// kMaxPluginFileSize bytes holding an ELF shared object for this host
/// (class, byte order, machine) whose header tables and loadable segments lie
/// inside the file. The error's message is the cause alone, without the file.
llvm::Expected<SharedLibraryExports> checkSharedLibrary(llvm::StringRef path);

/// Hex SHA-256 of the regular file `path`, read in chunks rather than
/// mapped.
llvm::Expected<std::string> hashFile(llvm::StringRef path);

/// The objects mapped into the process and their loaded segments, as the
/// dynamic linker lists them at the time of the snapshot.
class LoadedObjects {
public:
  static LoadedObjects snapshot();

  /// The file of every object but the main program and the vDSO.
  const std::vector<std::string> &files() const { return paths; }
  /// Whether [address, address + size) lies inside one readable segment.
  bool isReadable(const void *address, size_t size) const;
  /// Whether `address` lies inside an executable segment.
  bool isExecutable(const void *address) const;
  /// The NUL-terminated string at `address`, if it lies inside one readable
  /// segment and is at most `maxLength` bytes long.
  std::optional<llvm::StringRef> string(const char *address, size_t maxLength) const;

private:
  struct Segment {
    uintptr_t begin, end;
    bool readable, executable;
  };
  const Segment *find(uintptr_t address) const;
  std::vector<std::string> paths;
  std::vector<Segment> segments;
};

/// Whether the dynamic symbol at `address` is a function. A symbol the
/// dynamic linker cannot name (the resolved target of an IFUNC) counts as
/// one; callers still check that the address is executable.
bool isFunctionSymbol(const void *address);

} // namespace kiln

#endif
