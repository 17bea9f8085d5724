//===- Memory.h - host buffers a kernel reads and writes --------*- C++ -*-===//
//
// Every buffer the kernel can reach gets its own window of a 64-bit address
// space: buffer i starts at kBufferBase(i), a 2^40-aligned address in the
// middle of a 2^41-byte window. A pointer is a plain 64-bit address, so
// pointer arithmetic, int_to_ptr and ptr_to_int behave as on a GPU, yet
// every access can be traced back to one buffer and checked: bytes before
// its start, past its end, outside any window, or misaligned are reported
// instead of touching host memory.
//
// A buffer may track which bytes the kernel has written ("poisoned" output
// buffers): reading a byte that was never written is then reportable.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNSPEC_MEMORY_H
#define KILN_RUNSPEC_MEMORY_H

#include "kiln/RunSpec/Value.h"

#include <string>
#include <vector>

namespace kiln::interp {

struct Buffer {
  std::string name;
  ElemKind elem = ElemKind::I8; ///< element type, for messages and comparison
  Shape shape;
  std::vector<uint8_t> bytes;
  /// One flag per byte when the buffer is poisoned (its initial contents are
  /// undefined); empty otherwise.
  std::vector<uint8_t> written;
  uint64_t base = 0;

  bool poisoned() const { return !written.empty(); }
  int64_t numel() const { return numElements(shape); }
};

/// Why an access failed.
enum class Fault : uint8_t { None, Unmapped, BeforeStart, PastEnd, Misaligned, Poison };

class Memory {
public:
  static constexpr unsigned kWindowBits = 41;

  /// Adds a buffer of `shape` elements of `elem`. Contents are zero, or a
  /// recognisable poison pattern with written-tracking when `poison` is set.
  unsigned addBuffer(std::string name, ElemKind elem, llvm::ArrayRef<int64_t> shape,
                     bool poison);
  unsigned size() const { return buffers_.size(); }
  Buffer &buffer(unsigned id) { return buffers_[id]; }
  const Buffer &buffer(unsigned id) const { return buffers_[id]; }
  uint64_t address(unsigned id) const { return buffers_[id].base; }

  /// Finds the buffer holding [addr, addr + size). On success returns
  /// Fault::None with `id` and byte `offset`; otherwise the fault (with `id`
  /// and `offset` still set when the address falls in a buffer's window).
  Fault locate(uint64_t addr, unsigned size, unsigned &id, int64_t &offset) const {
    uint64_t window = addr >> kWindowBits;
    if (window == 0 || window > buffers_.size())
      return Fault::Unmapped;
    id = unsigned(window - 1);
    const Buffer &b = buffers_[id];
    offset = int64_t(addr - b.base);
    if (offset < 0)
      return Fault::BeforeStart;
    if (uint64_t(offset) + size > b.bytes.size())
      return Fault::PastEnd;
    if (addr % size)
      return Fault::Misaligned;
    return Fault::None;
  }

  /// True when every byte of [offset, offset + size) of a poisoned buffer
  /// has been written (always true for other buffers).
  bool isWritten(unsigned id, int64_t offset, unsigned size) const {
    const Buffer &b = buffers_[id];
    if (b.written.empty())
      return true;
    for (unsigned i = 0; i < size; ++i)
      if (!b.written[offset + i])
        return false;
    return true;
  }
  void markWritten(unsigned id, int64_t offset, unsigned size) {
    Buffer &b = buffers_[id];
    if (!b.written.empty())
      std::fill(b.written.begin() + offset, b.written.begin() + offset + size, 1);
  }

  /// For a buffer a device wrote back into `bytes`: marks as written every
  /// element that no longer holds the poison pattern. A device cannot track
  /// its writes, so an element whose written value equals the pattern reads
  /// as never written (a false failure, never a false pass).
  void markWrittenUnlessPoison(unsigned id);

  /// A sentence describing a failed access of `size` bytes at `addr`.
  std::string describe(Fault fault, uint64_t addr, unsigned size) const;

private:
  std::vector<Buffer> buffers_;
};

} // namespace kiln::interp

#endif
