//===- Cache.cpp - on-disk cache of compiled artefacts --------------------===//
#include "kiln/Pipeline/Cache.h"

#include "kiln/Config.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace kiln {

namespace {
constexpr StringLiteral kMagic = "kiln-cache-v2";

// Entry layout: "<magic> <key> <payload size> <checksum>\n<payload>", the
// checksum a key() over the magic, the key and the payload. The entry
// carries its key so that a file moved or copied under another key's name
// is never served for it.
std::string checksum(StringRef key, StringRef payload) {
  return Cache::key({kMagic, key, payload});
}

/// Reads the entry at `path` if it is a regular file of at most
/// kMaxEntrySize bytes. Never follows a symbolic link and never blocks (a
/// FIFO); never maps the file, so one truncated meanwhile is no SIGBUS.
Expected<std::string> readEntry(const std::string &path) {
  auto fail = [](const Twine &why) { return createStringError(inconvertibleErrorCode(), why); };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return fail(errno == ELOOP ? "it is a symbolic link"
                               : "cannot open it: " + Twine(std::strerror(errno)));
  auto closing = make_scope_exit([fd] { ::close(fd); });
  struct stat status;
  if (::fstat(fd, &status) != 0)
    return fail("cannot read it: " + Twine(std::strerror(errno)));
  if (!S_ISREG(status.st_mode))
    return fail("it is not a regular file");
  if (uint64_t(status.st_size) > Cache::kMaxEntrySize)
    return fail("it is " + Twine(status.st_size) + " bytes, more than an entry may have");
  std::string content(status.st_size, '\0');
  for (size_t done = 0; done < content.size();) {
    ssize_t n = ::read(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return fail(n < 0 ? "cannot read it: " + Twine(std::strerror(errno))
                        : Twine("it shrank while being read"));
    done += n;
  }
  return content;
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

std::optional<std::string> Cache::lookup(StringRef key, std::string *whyNot) const {
  std::string path = pathFor(key);
  auto miss = [&](const Twine &why) -> std::optional<std::string> {
    if (whyNot)
      *whyNot = why.str();
    // Recompiled and rewritten by store(). unlink, not sys::fs::remove,
    // which leaves FIFOs and devices alone.
    ::unlink(path.c_str());
    return std::nullopt;
  };
  sys::fs::file_status status;
  if (sys::fs::status(path, status, /*Follow=*/false))
    return std::nullopt; // no entry

  Expected<std::string> content = readEntry(path);
  if (!content)
    return miss(toString(content.takeError()));
  auto [header, payload] = StringRef(*content).split('\n');
  SmallVector<StringRef, 4> fields;
  header.split(fields, ' ');
  if (fields.size() != 4 || fields[0] != kMagic)
    return miss("it is not a " + kMagic + " entry");
  if (fields[1] != key)
    return miss("it holds the entry of another key (" + fields[1] + ")");
  size_t size = 0;
  if (fields[2].getAsInteger(10, size) || size != payload.size() ||
      fields[3] != checksum(key, payload))
    return miss("it is corrupt (checksum or size mismatch)");
  return payload.str();
}

Error Cache::store(StringRef key, StringRef payload) const {
  if (payload.size() > kMaxEntrySize)
    return createStringError(inconvertibleErrorCode(),
                             "cache: the artifact is " + Twine(payload.size()) +
                                 " bytes, more than an entry may have; not cached");
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
    os << kMagic << " " << key << " " << payload.size() << " " << checksum(key, payload)
       << "\n"
       << payload;
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
