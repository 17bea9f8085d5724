//===- Value.h - runtime values of the TTIR interpreter ---------*- C++ -*-===//
//
// A runtime value is a tensor (a scalar is a rank-0 tensor), a block pointer
// (`!tt.ptr<tensor<...>>`) or a tensor descriptor. Tensors hold their
// elements contiguously in row-major order; f16, bf16 and fp8 elements are
// stored as raw bit patterns, i1 as one byte (0 or 1), pointers as 64-bit
// addresses into the interpreter's Memory. Tensors are immutable once built
// and share their storage on copy.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNSPEC_VALUE_H
#define KILN_RUNSPEC_VALUE_H

#include "kiln/RunSpec/FloatFormats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace mlir {
class Type;
} // namespace mlir

namespace kiln::interp {

enum class ElemKind : uint8_t {
  I1, I8, I16, I32, I64,
  F16, BF16, F32, F64,
  F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
  Ptr,
};

/// Bytes one element occupies in a tensor and in memory.
unsigned byteSize(ElemKind k);
bool isIntKind(ElemKind k);
bool isFloatKind(ElemKind k);
/// Bit width of an integer kind (1 for i1).
unsigned intBits(ElemKind k);
/// The format of a float kind stored as bits (all but f64); null otherwise.
const FloatFormat *floatFormatOf(ElemKind k);
/// "f32", "i1", "ptr", ...
llvm::StringRef kindName(ElemKind k);
/// Parses a run-spec dtype: the names above plus "bool", "u8".."u64",
/// "fp8e4nv" and the like.
std::optional<ElemKind> parseKindName(llvm::StringRef name);
/// The kind of a scalar MLIR type (integer, index, float, !tt.ptr<scalar>);
/// defined in TypeKinds.cpp, outside the MLIR-free run-spec library.
std::optional<ElemKind> kindOfType(mlir::Type scalarType);

/// CUDA's launch limits (x up to 2^31-1, y and z up to 65535), which the
/// interpreter enforces too so a mistyped grid fails instead of running for
/// days.
inline constexpr std::array<int64_t, 3> kMaxGrid{2147483647, 65535, 65535};
/// "" if `size` is a valid grid size on `axis` (0..2), else why not.
std::string gridSizeProblem(unsigned axis, int64_t size);

using Shape = llvm::SmallVector<int64_t, 4>;
int64_t numElements(llvm::ArrayRef<int64_t> shape);
/// "[3, 17]": the multi-dimensional index of flat element `flat`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t flat);

class Tensor {
public:
  Tensor() = default;
  /// A tensor with uninitialised elements.
  static Tensor alloc(ElemKind kind, llvm::ArrayRef<int64_t> shape);
  static Tensor zeros(ElemKind kind, llvm::ArrayRef<int64_t> shape);
  static Tensor scalarInt(ElemKind kind, int64_t value);
  static Tensor scalarFloat(ElemKind kind, double value);
  static Tensor scalarPtr(uint64_t address);

  bool valid() const { return storage_ != nullptr || count_ == 0; }
  ElemKind kind() const { return kind_; }
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  unsigned rank() const { return shape_.size(); }
  int64_t numel() const { return count_; }
  unsigned elemBytes() const { return byteSize(kind_); }

  const uint8_t *raw() const { return reinterpret_cast<const uint8_t *>(storage_.get()); }
  /// Only for a tensor that was just allocated and is not shared yet.
  uint8_t *rawMut() { return reinterpret_cast<uint8_t *>(storage_.get()); }
  template <class T> const T *data() const { return reinterpret_cast<const T *>(storage_.get()); }
  template <class T> T *dataMut() { return reinterpret_cast<T *>(storage_.get()); }

  /// The same elements viewed with another shape of equal size.
  Tensor reshaped(llvm::ArrayRef<int64_t> shape) const;
  /// The same bytes viewed as another kind of equal size (a bitcast).
  Tensor withKind(ElemKind kind) const {
    Tensor t = *this;
    t.kind_ = kind;
    return t;
  }

  /// Slow element access, for printing, comparing and rare paths.
  uint64_t bitsAt(int64_t i) const;
  int64_t intAt(int64_t i) const;   ///< sign-extended (i1 true is -1)
  uint64_t uintAt(int64_t i) const; ///< zero-extended
  double floatAt(int64_t i) const;  ///< exact value of a float element
  void setBits(int64_t i, uint64_t bits);

private:
  ElemKind kind_ = ElemKind::I32;
  Shape shape_;
  int64_t count_ = 0;
  std::shared_ptr<uint64_t[]> storage_;
};

/// `!tt.ptr<tensor<...>>` from tt.make_tensor_ptr: a block of a strided
/// parent tensor. Strides are in elements.
struct BlockPtr {
  uint64_t base = 0;
  ElemKind elem = ElemKind::F32;
  Shape shape, strides, offsets, block;
};

/// `!tt.tensordesc<...>`: a global tensor (shape, strides in elements) and
/// the block shape each descriptor load/store moves.
struct TensorDesc {
  uint64_t base = 0;
  ElemKind elem = ElemKind::F32;
  Shape shape, strides, block;
  bool padNan = false;
};

using RtValue = std::variant<Tensor, BlockPtr, TensorDesc>;

} // namespace kiln::interp

#endif
