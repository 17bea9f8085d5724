//===- Memory.cpp - host buffers a kernel reads and writes ----------------===//
#include "kiln/RunSpec/Memory.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace kiln::interp {

namespace {
/// A poison element: a NaN for floats (so that arithmetic on it shows), an
/// unlikely pattern for integers.
uint64_t poisonPattern(ElemKind elem) {
  switch (elem) {
  case ElemKind::F16: return 0x7dad;
  case ElemKind::BF16: return 0x7fad;
  case ElemKind::F32: return 0x7fadadad;
  case ElemKind::F64: return 0x7ff5adadadadadadull;
  default: return 0xadadadadadadadadull;
  }
}

void fillPoison(Buffer &b) {
  unsigned size = byteSize(b.elem);
  uint64_t pattern = poisonPattern(b.elem);
  for (size_t i = 0; i + size <= b.bytes.size(); i += size)
    std::memcpy(&b.bytes[i], &pattern, size);
}
} // namespace

unsigned Memory::addBuffer(std::string name, ElemKind elem, llvm::ArrayRef<int64_t> shape,
                           bool poison) {
  Buffer b;
  b.name = std::move(name);
  b.elem = elem;
  b.shape.assign(shape.begin(), shape.end());
  b.bytes.assign(size_t(numElements(shape)) * byteSize(elem), 0);
  unsigned id = buffers_.size();
  // The buffer sits in the middle of its window, so that addresses a little
  // before its start still map to it and read as "before the start".
  b.base = (uint64_t(id + 1) << kWindowBits) + (uint64_t(1) << (kWindowBits - 1));
  if (poison) {
    fillPoison(b);
    b.written.assign(b.bytes.size(), 0);
  }
  buffers_.push_back(std::move(b));
  return id;
}

void Memory::markWrittenUnlessPoison(unsigned id) {
  Buffer &b = buffers_[id];
  if (!b.poisoned())
    return;
  unsigned size = byteSize(b.elem);
  uint64_t pattern = poisonPattern(b.elem);
  for (size_t i = 0; i + size <= b.bytes.size(); i += size)
    if (std::memcmp(&b.bytes[i], &pattern, size) != 0)
      std::fill(b.written.begin() + i, b.written.begin() + i + size, 1);
}

std::string Memory::describe(Fault fault, uint64_t addr, unsigned size) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  unsigned id = 0;
  int64_t offset = 0;
  if (fault == Fault::Unmapped || locate(addr, size, id, offset) == Fault::Unmapped) {
    os << "address " << llvm::format_hex(addr, 18) << " is not in any buffer";
    if (addr < (uint64_t(1) << kWindowBits))
      os << " (a null or integer-derived pointer?)";
    return s;
  }
  const Buffer &b = buffers_[id];
  unsigned esz = byteSize(b.elem);
  auto bufDesc = [&] {
    os << "buffer '" << b.name << "' (" << b.numel() << " x " << kindName(b.elem) << ", "
       << b.bytes.size() << " bytes)";
  };
  switch (fault) {
  case Fault::BeforeStart:
    os << "the address is " << -offset << " bytes before the start of ";
    bufDesc();
    break;
  case Fault::PastEnd:
    if (uint64_t(offset) >= b.bytes.size()) {
      if (offset % esz == 0)
        os << "element " << offset / esz << " is past the end of ";
      else
        os << "byte offset " << offset << " is past the end of ";
      bufDesc();
    } else {
      os << "the " << size << "-byte access at byte offset " << offset << " runs past the end of ";
      bufDesc();
    }
    break;
  case Fault::Misaligned:
    os << "address at byte offset " << offset << " of ";
    bufDesc();
    os << " is not aligned to " << size << " bytes";
    break;
  case Fault::Poison:
    os << "reads element " << offset / esz << " of output buffer '" << b.name
       << "', which the kernel has not written (its initial contents are undefined)";
    break;
  default:
    break;
  }
  return s;
}

} // namespace kiln::interp
