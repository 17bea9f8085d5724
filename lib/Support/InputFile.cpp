//===- InputFile.cpp - bounded reading of the files a user names ----------===//
#include "kiln/Support/InputFile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kiln {
namespace {

Error cannotRead(StringRef path, StringRef what, const Twine &reason) {
  if (path == "-")
    return createStringError("cannot read standard input: " + reason);
  std::string role = what.empty() ? std::string() : what.str() + " ";
  return createStringError("cannot read " + role + "'" + path + "': " + reason);
}

std::string overLimit(uint64_t limit) {
  return "the input size limit of " + formatByteSize(limit) +
         "; set KILN_MAX_INPUT_SIZE to change it";
}

/// Why `status` is no file we read, or "" when it is a regular file.
std::string notRegular(const sys::fs::file_status &status) {
  if (sys::fs::is_directory(status))
    return "it is a folder";
  if (!sys::fs::is_regular_file(status))
    return "it is not a regular file (a device, FIFO or socket)";
  return "";
}

/// Opens `path` after checking that it is a regular file: opening a FIFO
/// would block until a writer appears. The status of the open file is
/// checked again, in case the path changed in between.
Expected<sys::fs::file_t> openRegular(StringRef path, StringRef what, uint64_t &size) {
  if (Expected<uint64_t> checked = regularFileSize(path, what); !checked)
    return checked.takeError();
  Expected<sys::fs::file_t> fd = sys::fs::openNativeFileForRead(path);
  if (!fd)
    return cannotRead(path, what, toString(fd.takeError()));
  sys::fs::file_status status;
  std::string why;
  if (std::error_code ec = sys::fs::status(*fd, status))
    why = ec.message();
  else
    why = notRegular(status);
  if (!why.empty()) {
    sys::fs::closeFile(*fd);
    return cannotRead(path, what, why);
  }
  size = status.getSize();
  return *fd;
}

Expected<std::unique_ptr<MemoryBuffer>> readStdin(uint64_t limit) {
  SmallVector<char, 0> data;
  sys::fs::file_t in = sys::fs::getStdinHandle();
  while (true) {
    // Reading one byte past the limit tells a stream at the limit from a
    // longer one.
    size_t chunk = size_t(std::min<uint64_t>(limit - data.size(), 1 << 16)) + 1;
    size_t old = data.size();
    data.resize_for_overwrite(old + chunk);
    Expected<size_t> got = sys::fs::readNativeFile(in, MutableArrayRef<char>(data).drop_front(old));
    if (!got)
      return cannotRead("-", "", toString(got.takeError()));
    data.truncate(old + *got);
    if (*got == 0)
      break;
    if (data.size() > limit)
      return cannotRead("-", "", "it is longer than " + overLimit(limit));
  }
  return MemoryBuffer::getMemBufferCopy(StringRef(data.data(), data.size()), "<stdin>");
}

} // namespace

Expected<uint64_t> inputSizeLimit() {
  std::optional<std::string> env = sys::Process::GetEnv("KILN_MAX_INPUT_SIZE");
  if (!env)
    return kDefaultInputSizeLimit;
  if (std::optional<uint64_t> bytes = parseByteSize(*env))
    return *bytes;
  return createStringError("KILN_MAX_INPUT_SIZE is '" + *env +
                           "', not a size in bytes (such as 1048576, 64M or 1G)");
}

std::optional<uint64_t> parseByteSize(StringRef text) {
  text = text.trim();
  unsigned shift = 0;
  if (!text.empty()) {
    switch (toLower(text.back())) {
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    case 't': shift = 40; break;
    default: break;
    }
    if (shift)
      text = text.drop_back();
  }
  uint64_t value;
  if (text.empty() || !llvm::all_of(text, isDigit) || text.getAsInteger(10, value))
    return std::nullopt;
  if (shift && value > (UINT64_MAX >> shift))
    return std::nullopt;
  return value << shift;
}

std::string formatByteSize(uint64_t bytes) {
  std::string s;
  raw_string_ostream os(s);
  os << bytes << " bytes";
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
  int unit = -1;
  while (unit < 3 && bytes >= (uint64_t(1024) << (10 * (unit + 1))))
    ++unit;
  if (unit >= 0) {
    double scaled = double(bytes) / double(uint64_t(1) << (10 * (unit + 1)));
    os << " (" << format(scaled == double(uint64_t(scaled)) ? "%.0f" : "%.1f", scaled) << " "
       << units[unit] << ")";
  }
  return s;
}

Expected<uint64_t> regularFileSize(StringRef path, StringRef what) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status))
    return cannotRead(path, what, ec.message());
  if (std::string why = notRegular(status); !why.empty())
    return cannotRead(path, what, why);
  return status.getSize();
}

Expected<std::unique_ptr<MemoryBuffer>> readInputFile(StringRef path, StringRef what,
                                                      std::optional<uint64_t> maxBytes) {
  if (!maxBytes) {
    Expected<uint64_t> fromEnvironment = inputSizeLimit();
    if (!fromEnvironment)
      return fromEnvironment.takeError();
    maxBytes = *fromEnvironment;
  }
  uint64_t limit = *maxBytes;
  if (path == "-")
    return readStdin(limit);
  uint64_t size;
  Expected<sys::fs::file_t> fd = openRegular(path, what, size);
  if (!fd)
    return fd.takeError();
  if (size > limit) {
    sys::fs::closeFile(*fd);
    return cannotRead(path, what,
                      "it holds " + Twine(size) + " bytes, more than " + overLimit(limit));
  }
  // Volatile: read into memory rather than mapped, so a file truncated by
  // someone else while we parse it cannot fault.
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getOpenFile(*fd, path, size, /*RequiresNullTerminator=*/true,
                                /*IsVolatile=*/true);
  sys::fs::closeFile(*fd);
  if (!buffer)
    return cannotRead(path, what, buffer.getError().message());
  return std::move(*buffer);
}

Error readInputFileInto(StringRef path, MutableArrayRef<uint8_t> out, StringRef what) {
  uint64_t size;
  Expected<sys::fs::file_t> fd = openRegular(path, what, size);
  if (!fd)
    return fd.takeError();
  Error result = Error::success();
  if (size != out.size()) {
    result = cannotRead(path, what,
                        "it holds " + Twine(size) + " bytes, not " + Twine(out.size()));
  } else {
    auto rest = MutableArrayRef(reinterpret_cast<char *>(out.data()), out.size());
    while (!rest.empty()) {
      Expected<size_t> got = sys::fs::readNativeFile(*fd, rest);
      if (!got) {
        result = cannotRead(path, what, toString(got.takeError()));
        break;
      }
      if (*got == 0) {
        result = cannotRead(path, what, "it became shorter while being read");
        break;
      }
      rest = rest.drop_front(*got);
    }
  }
  sys::fs::closeFile(*fd);
  return result;
}

} // namespace kiln
