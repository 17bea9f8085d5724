//===- SharedLibrary.cpp - what the loader checks around dlopen -----------===//
#include "kiln/Plugin/SharedLibrary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace kiln {

namespace {

Error problem(const Twine &cause) {
  return createStringError(inconvertibleErrorCode(), cause);
}

// What this process is, as ELF says it.
constexpr unsigned char kHostClass = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
constexpr unsigned char kHostData =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__i386__)
constexpr uint16_t kHostMachine = EM_386;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr uint16_t kHostMachine = EM_PPC64;
#elif defined(__riscv)
constexpr uint16_t kHostMachine = EM_RISCV;
#else
constexpr uint16_t kHostMachine = EM_NONE; // not checked
#endif

std::string machineName(uint16_t machine) {
  switch (machine) {
  case EM_X86_64:
    return "x86-64";
  case EM_386:
    return "i386";
  case EM_AARCH64:
    return "AArch64";
  case EM_ARM:
    return "ARM";
  case EM_PPC64:
    return "PowerPC64";
  case EM_RISCV:
    return "RISC-V";
  case EM_CUDA:
    return "CUDA (a GPU binary)";
  case EM_AMDGPU:
    return "AMDGPU (a GPU binary)";
  default:
    return "machine " + std::to_string(machine);
  }
}

/// A file opened for reading, closed on scope exit. Opening never blocks (a
/// FIFO) and accepts only regular files, up to a size; reads use pread,
/// so a file that shrinks meanwhile is an error, never a SIGBUS.
class File {
public:
  File() = default;
  File(const File &) = delete;
  ~File() {
    if (fd >= 0)
      ::close(fd);
  }

  Error open(StringRef path, uint64_t maxSize) {
    std::string name = path.str();
    fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
      return problem("cannot open it: " + Twine(std::strerror(errno)));
    struct stat status;
    if (::fstat(fd, &status) != 0)
      return problem("cannot open it: " + Twine(std::strerror(errno)));
    if (!S_ISREG(status.st_mode))
      return problem("is not a regular file");
    size = status.st_size;
    if (size > maxSize)
      return problem("is " + Twine(size) + " bytes, more than the " + Twine(maxSize >> 20) +
                     " MiB a plugin may have");
    return Error::success();
  }

  /// Whether `length` bytes at `offset` lie inside the file.
  bool holds(uint64_t offset, uint64_t length) const {
    return offset <= size && length <= size - offset;
  }

  Error read(uint64_t offset, void *out, size_t length) const {
    auto *bytes = static_cast<char *>(out);
    while (length) {
      ssize_t n = ::pread(fd, bytes, length, offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return problem("cannot read it: " + Twine(std::strerror(errno)));
      if (n == 0)
        return problem("it shrank while being read");
      bytes += n;
      offset += n;
      length -= n;
    }
    return Error::success();
  }

  /// Reads `count` entries of a header table at `offset`, named `what`.
  template <typename T>
  Error readTable(StringRef what, uint64_t offset, uint64_t count, std::vector<T> &out) const {
    uint64_t length = count * sizeof(T); // count is at most 2^16 or bounded by `size`
    if (!holds(offset, length))
      return problem("its " + what + " (" + Twine(length) + " bytes at offset " +
                     Twine(offset) + ") lies outside the file of " + Twine(size) +
                     " bytes (truncated?)");
    out.resize(count);
    return read(offset, out.data(), length);
  }

  uint64_t size = 0;

private:
  int fd = -1;
};

using Ehdr = ElfW(Ehdr);
using Phdr = ElfW(Phdr);
using Shdr = ElfW(Shdr);
using Sym = ElfW(Sym);

Error checkHeader(const Ehdr &header) {
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return problem("is not an ELF file (no ELF magic number)");
  auto bits = [](unsigned char elfClass) {
    return elfClass == ELFCLASS64 ? "64-bit" : elfClass == ELFCLASS32 ? "32-bit" : "unknown-class";
  };
  if (header.e_ident[EI_CLASS] != kHostClass)
    return problem(Twine("is a ") + bits(header.e_ident[EI_CLASS]) +
                   " ELF file, but this kiln is " + bits(kHostClass));
  auto order = [](unsigned char data) {
    return data == ELFDATA2LSB ? "little-endian" : data == ELFDATA2MSB ? "big-endian" : "unknown-endian";
  };
  if (header.e_ident[EI_DATA] != kHostData)
    return problem(Twine("is a ") + order(header.e_ident[EI_DATA]) +
                   " ELF file, but this host is " + order(kHostData));
  if (kHostMachine != EM_NONE && header.e_machine != kHostMachine)
    return problem("is an ELF file for " + machineName(header.e_machine) +
                   ", but this host is " + machineName(kHostMachine));
  if (header.e_type != ET_DYN)
    return problem(header.e_type == ET_EXEC  ? "is an executable, not a shared library"
                   : header.e_type == ET_REL ? "is an object file (.o), not a shared library"
                                             : "is an ELF file but not a shared library");
  if (header.e_ehsize < sizeof(Ehdr) || header.e_phentsize != sizeof(Phdr) ||
      (header.e_shoff && header.e_shentsize != sizeof(Shdr)))
    return problem("has a malformed ELF header (unexpected header sizes)");
  return Error::success();
}

Error checkSegments(const File &file, const std::vector<Phdr> &segments) {
  bool loadable = false;
  for (auto [index, segment] : llvm::enumerate(segments)) {
    if (segment.p_type != PT_LOAD)
      continue;
    loadable = true;
    if (segment.p_filesz > segment.p_memsz)
      return problem("its loadable segment " + Twine(index) +
                     " is malformed (more bytes in the file than in memory)");
    if (!file.holds(segment.p_offset, segment.p_filesz))
      return problem("its loadable segment " + Twine(index) + " (" + Twine(segment.p_filesz) +
                     " bytes at offset " + Twine(segment.p_offset) +
                     ") lies outside the file of " + Twine(file.size) + " bytes (truncated?)");
  }
  if (!loadable)
    return problem("has no loadable segment");
  return Error::success();
}

/// Symbol tables larger than this are not scanned for entry points (a
/// plugin's are a few KiB); the loader's later checks still apply.
constexpr uint64_t kMaxScannedSymbols = uint64_t(64) << 20;

Error scanExports(const File &file, const std::vector<Shdr> &sections,
                  SharedLibraryExports &exports) {
  for (const Shdr &table : sections) {
    if (table.sh_type != SHT_DYNSYM || table.sh_entsize != sizeof(Sym) ||
        table.sh_link >= sections.size())
      continue;
    const Shdr &strings = sections[table.sh_link];
    if (strings.sh_type != SHT_STRTAB || table.sh_size + strings.sh_size > kMaxScannedSymbols)
      continue;
    std::vector<Sym> symbols;
    std::vector<char> names;
    if (Error error = file.readTable("dynamic symbol table", table.sh_offset,
                                     table.sh_size / sizeof(Sym), symbols))
      return error;
    if (Error error = file.readTable("dynamic string table", strings.sh_offset,
                                     strings.sh_size, names))
      return error;
    for (const Sym &symbol : symbols) {
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= names.size())
        continue;
      const char *begin = names.data() + symbol.st_name;
      const void *end = std::memchr(begin, 0, names.size() - symbol.st_name);
      if (!end)
        continue;
      StringRef name(begin, static_cast<const char *>(end) - begin);
      exports.kilnEntry |= name == "kilnGetPluginInfo";
      exports.tritonEntry |= name == "tritonGetPluginInfo";
    }
  }
  return Error::success();
}

} // namespace

Expected<SharedLibraryExports> checkSharedLibrary(StringRef path) {
  File file;
  if (Error error = file.open(path, kMaxPluginFileSize))
    return std::move(error);
  Ehdr header;
  if (file.size < sizeof header)
    return problem("is not an ELF file (" + Twine(file.size) +
                   " bytes, too short for an ELF header)");
  if (Error error = file.read(0, &header, sizeof header))
    return std::move(error);
  if (Error error = checkHeader(header))
    return std::move(error);

  std::vector<Phdr> segments;
  if (Error error = file.readTable("program header table", header.e_phoff, header.e_phnum,
                                   segments))
    return std::move(error);
  if (Error error = checkSegments(file, segments))
    return std::move(error);

  std::vector<Shdr> sections;
  if (header.e_shoff) {
    uint64_t count = header.e_shnum;
    if (count == 0) {
      // More sections than e_shnum holds: the count is in section 0.
      if (Error error = file.readTable("section header table", header.e_shoff, 1, sections))
        return std::move(error);
      count = std::min<uint64_t>(sections[0].sh_size, file.size / sizeof(Shdr) + 1);
    }
    if (Error error = file.readTable("section header table", header.e_shoff, count, sections))
      return std::move(error);
  }
  SharedLibraryExports exports;
  if (Error error = scanExports(file, sections, exports))
    return std::move(error);
  return exports;
}

Expected<std::string> hashFile(StringRef path) {
  File file; // any size: read in chunks
  if (Error error = file.open(path, UINT64_MAX))
    return std::move(error);
  SHA256 hasher;
  std::vector<uint8_t> chunk(uint64_t(1) << 16);
  for (uint64_t offset = 0; offset < file.size; offset += chunk.size()) {
    size_t length = std::min<uint64_t>(chunk.size(), file.size - offset);
    if (Error error = file.read(offset, chunk.data(), length))
      return std::move(error);
    hasher.update(ArrayRef<uint8_t>(chunk.data(), length));
  }
  return toHex(hasher.final(), /*LowerCase=*/true);
}

LoadedObjects LoadedObjects::snapshot() {
  LoadedObjects objects;
  ::dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) {
        auto &self = *static_cast<LoadedObjects *>(data);
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const Phdr &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD)
            continue;
          uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
          self.segments.push_back({begin, begin + segment.p_memsz,
                                   (segment.p_flags & PF_R) != 0,
                                   (segment.p_flags & PF_X) != 0});
        }
        // The main program has no name; the vDSO's ("linux-vdso.so.1") is
        // no file. The dynamic linker names every file it mapped by a path
        // with a '/'.
        if (info->dlpi_name && std::strchr(info->dlpi_name, '/'))
          self.paths.push_back(info->dlpi_name);
        return 0;
      },
      &objects);
  return objects;
}

const LoadedObjects::Segment *LoadedObjects::find(uintptr_t address) const {
  for (const Segment &segment : segments)
    if (segment.begin <= address && address < segment.end)
      return &segment;
  return nullptr;
}

bool LoadedObjects::isReadable(const void *address, size_t size) const {
  auto begin = reinterpret_cast<uintptr_t>(address);
  const Segment *segment = find(begin);
  return segment && segment->readable && size <= segment->end - begin;
}

bool LoadedObjects::isExecutable(const void *address) const {
  const Segment *segment = find(reinterpret_cast<uintptr_t>(address));
  return segment && segment->executable;
}

std::optional<StringRef> LoadedObjects::string(const char *address, size_t maxLength) const {
  auto begin = reinterpret_cast<uintptr_t>(address);
  const Segment *segment = find(begin);
  if (!segment || !segment->readable)
    return std::nullopt;
  size_t limit = std::min<uintptr_t>(segment->end - begin, maxLength + 1);
  const void *end = std::memchr(address, 0, limit);
  if (!end)
    return std::nullopt;
  return StringRef(address, static_cast<const char *>(end) - address);
}

bool isFunctionSymbol(const void *address) {
  Dl_info info;
  void *entry = nullptr;
  if (!::dladdr1(address, &info, &entry, RTLD_DL_SYMENT) ||
      !entry || info.dli_saddr != address)
    return true;
  // The type bits sit alike in both ELF classes.
  unsigned type = ELF64_ST_TYPE(static_cast<const Sym *>(entry)->st_info);
  return type == STT_FUNC || type == STT_GNU_IFUNC;
}

} // namespace kiln
