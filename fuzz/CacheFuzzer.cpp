//===- CacheFuzzer.cpp - cache entries as the cache reads them ------------===//
//
// The input is the content of an entry file. It is written where the cache
// keeps the entry of a fixed key and looked up. Beyond not crashing, the
// cache's promises are checked: a lookup that serves a payload serves the
// entry's payload, one that does not has removed the entry, and any payload,
// stored, is served back unchanged.
//
// The folder is a fresh one under TMPDIR (default /tmp), removed at exit;
// /dev/shm is faster where TMPDIR can point at it.
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/Cache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>

using namespace llvm;

namespace {

[[noreturn]] void finding(const Twine &what) {
  errs() << "kiln-fuzz-cache: " << what << "\n";
  std::abort();
}

std::string &folder() {
  static std::string dir;
  return dir;
}

void removeFolder() { sys::fs::remove_directories(folder()); }

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  SmallString<128> dir;
  if (sys::fs::createUniqueDirectory("kiln-fuzz-cache", dir))
    finding("cannot create a cache folder");
  folder() = std::string(dir);
  std::atexit(removeFolder);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::Cache cache(folder());
  static const std::string key = kiln::Cache::key({"kiln-fuzz-cache"});
  static const std::string path = [&] {
    std::string p = cache.pathFor(key);
    if (sys::fs::create_directories(sys::path::parent_path(p)))
      finding("cannot create the entry's folder");
    return p;
  }();
  StringRef content(reinterpret_cast<const char *>(data), size);
  {
    std::ofstream entry(path, std::ios::binary | std::ios::trunc);
    entry.write(content.data(), content.size());
    if (!entry)
      finding("cannot write the entry");
  }

  std::optional<std::string> payload = cache.lookup(key);
  if (payload && !content.ends_with(*payload))
    finding("served a payload that is not the entry's");
  if (!payload && sys::fs::exists(path))
    finding("an entry that was not served is still there");

  if (Error error = cache.store(key, content))
    finding("store failed: " + toString(std::move(error)));
  std::optional<std::string> back = cache.lookup(key);
  if (!back || *back != content)
    finding("a stored payload is not served back unchanged");
  return 0;
}
