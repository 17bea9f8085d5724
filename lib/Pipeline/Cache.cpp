//===- Cache.cpp - on-disk cache of compiled artefacts --------------------===//
#include "kiln/Pipeline/Cache.h"

#include "kiln/Config.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace llvm;

namespace kiln {

namespace {
constexpr StringLiteral kMagic = "kiln-cache-v1";

std::string sha256(StringRef data) {
  return toHex(SHA256::hash(arrayRefFromStringRef(data)), /*LowerCase=*/true);
}
} // namespace

std::string Cache::defaultDirectory() {
  if (std::optional<std::string> dir = sys::Process::GetEnv("KILN_CACHE_DIR"))
    if (!dir->empty())
      return *dir;
  SmallString<256> path;
  if (!sys::path::cache_directory(path))
    return ""; // no per-user cache folder: no cache
  sys::path::append(path, "kiln");
  return std::string(path);
}

std::string Cache::hostIdentity() {
  // The library holding this function: its path, size and modification
  // time change when kiln is rebuilt, whatever its version string says.
  std::string identity = KILN_HOST_ABI;
  Dl_info info;
  sys::fs::file_status status;
  if (::dladdr(reinterpret_cast<void *>(&Cache::hostIdentity), &info) && info.dli_fname &&
      !sys::fs::status(info.dli_fname, status))
    identity += formatv("; {0} {1} {2}", info.dli_fname, status.getSize(),
                        status.getLastModificationTime().time_since_epoch().count())
                    .str();
  return identity;
}

std::string Cache::key(ArrayRef<StringRef> parts) {
  SHA256 hasher;
  for (StringRef part : parts) {
    std::string length = std::to_string(part.size()) + ":";
    hasher.update(length);
    hasher.update(part);
  }
  std::array<uint8_t, 32> digest = hasher.final();
  return toHex(digest, /*LowerCase=*/true);
}

std::string Cache::pathFor(StringRef key) const {
  SmallString<256> path(dir);
  sys::path::append(path, key.take_front(2), key);
  return std::string(path);
}

// Entry layout: "<magic> <sha256 of payload> <payload size>\n<payload>".
std::optional<std::string> Cache::lookup(StringRef key) const {
  std::string path = pathFor(key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
  if (!file)
    return std::nullopt;
  StringRef content = (*file)->getBuffer();
  auto [header, payload] = content.split('\n');
  SmallVector<StringRef, 3> fields;
  header.split(fields, ' ');
  size_t size = 0;
  bool sound = fields.size() == 3 && fields[0] == kMagic &&
               !fields[2].getAsInteger(10, size) && size == payload.size() &&
               fields[1] == sha256(payload);
  if (!sound) {
    sys::fs::remove(path); // corrupt: recompile and rewrite
    return std::nullopt;
  }
  return payload.str();
}

Error Cache::store(StringRef key, StringRef payload) const {
  std::string path = pathFor(key);
  StringRef folder = sys::path::parent_path(path);
  if (std::error_code ec = sys::fs::create_directories(folder))
    return createStringError(ec, "cache: cannot create '" + folder + "': " + ec.message());
  int fd;
  SmallString<256> temp;
  if (std::error_code ec =
          sys::fs::createUniqueFile(Twine(path) + ".tmp-%%%%%%%%", fd, temp))
    return createStringError(ec, "cache: cannot write in '" + folder + "': " + ec.message());
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic << " " << sha256(payload) << " " << payload.size() << "\n" << payload;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      sys::fs::remove(temp);
      return createStringError(ec, "cache: cannot write '" + temp + "': " + ec.message());
    }
  }
  if (std::error_code ec = sys::fs::rename(temp, path)) {
    sys::fs::remove(temp);
    return createStringError(ec, "cache: cannot rename into '" + path + "': " + ec.message());
  }
  return Error::success();
}

} // namespace kiln
