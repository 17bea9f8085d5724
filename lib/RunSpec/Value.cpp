//===- Value.cpp - runtime values of the TTIR interpreter -----------------===//
#include "kiln/RunSpec/Value.h"


#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>


namespace kiln::interp {

unsigned byteSize(ElemKind k) {
  switch (k) {
  case ElemKind::I1:
  case ElemKind::I8:
  case ElemKind::F8E4M3FN:
  case ElemKind::F8E4M3FNUZ:
  case ElemKind::F8E5M2:
  case ElemKind::F8E5M2FNUZ:
    return 1;
  case ElemKind::I16:
  case ElemKind::F16:
  case ElemKind::BF16:
    return 2;
  case ElemKind::I32:
  case ElemKind::F32:
    return 4;
  case ElemKind::I64:
  case ElemKind::F64:
  case ElemKind::Ptr:
    return 8;
  }
  return 8;
}

bool isIntKind(ElemKind k) { return k <= ElemKind::I64; }
bool isFloatKind(ElemKind k) { return k >= ElemKind::F16 && k <= ElemKind::F8E5M2FNUZ; }

unsigned intBits(ElemKind k) {
  switch (k) {
  case ElemKind::I1:
    return 1;
  case ElemKind::I8:
    return 8;
  case ElemKind::I16:
    return 16;
  case ElemKind::I32:
    return 32;
  default:
    return 64;
  }
}

const FloatFormat *floatFormatOf(ElemKind k) {
  switch (k) {
  case ElemKind::F16:
    return &kFormatF16;
  case ElemKind::BF16:
    return &kFormatBF16;
  case ElemKind::F32:
    return &kFormatF32;
  case ElemKind::F8E4M3FN:
    return &kFormatF8E4M3FN;
  case ElemKind::F8E4M3FNUZ:
    return &kFormatF8E4M3FNUZ;
  case ElemKind::F8E5M2:
    return &kFormatF8E5M2;
  case ElemKind::F8E5M2FNUZ:
    return &kFormatF8E5M2FNUZ;
  default:
    return nullptr;
  }
}

llvm::StringRef kindName(ElemKind k) {
  switch (k) {
  case ElemKind::I1: return "i1";
  case ElemKind::I8: return "i8";
  case ElemKind::I16: return "i16";
  case ElemKind::I32: return "i32";
  case ElemKind::I64: return "i64";
  case ElemKind::F16: return "f16";
  case ElemKind::BF16: return "bf16";
  case ElemKind::F32: return "f32";
  case ElemKind::F64: return "f64";
  case ElemKind::F8E4M3FN: return "f8e4m3fn";
  case ElemKind::F8E4M3FNUZ: return "f8e4m3fnuz";
  case ElemKind::F8E5M2: return "f8e5m2";
  case ElemKind::F8E5M2FNUZ: return "f8e5m2fnuz";
  case ElemKind::Ptr: return "ptr";
  }
  return "?";
}

std::optional<ElemKind> parseKindName(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElemKind>>(name)
      .Cases({"i1", "bool", "int1"}, ElemKind::I1)
      .Cases({"i8", "u8", "int8", "uint8"}, ElemKind::I8)
      .Cases({"i16", "u16", "int16", "uint16"}, ElemKind::I16)
      .Cases({"i32", "u32", "int32", "uint32"}, ElemKind::I32)
      .Cases({"i64", "u64", "int64", "uint64"}, ElemKind::I64)
      .Cases({"f16", "fp16", "float16"}, ElemKind::F16)
      .Cases({"bf16", "bfloat16"}, ElemKind::BF16)
      .Cases({"f32", "fp32", "float32"}, ElemKind::F32)
      .Cases({"f64", "fp64", "float64"}, ElemKind::F64)
      .Cases({"f8e4m3fn", "fp8e4nv", "float8_e4m3fn"}, ElemKind::F8E4M3FN)
      .Cases({"f8e4m3fnuz", "fp8e4b8", "float8_e4m3fnuz"}, ElemKind::F8E4M3FNUZ)
      .Cases({"f8e5m2", "fp8e5", "float8_e5m2"}, ElemKind::F8E5M2)
      .Cases({"f8e5m2fnuz", "fp8e5b16", "float8_e5m2fnuz"}, ElemKind::F8E5M2FNUZ)
      .Default(std::nullopt);
}


int64_t numElements(llvm::ArrayRef<int64_t> shape) {
  // A zero dimension empties the tensor whatever the others are, and the
  // product of those others may not fit in 64 bits.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t flat) {
  llvm::SmallVector<int64_t, 4> idx(shape.size());
  for (int i = int(shape.size()) - 1; i >= 0; --i) {
    idx[i] = shape[i] ? flat % shape[i] : 0;
    flat = shape[i] ? flat / shape[i] : 0;
  }
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i)
    s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

Tensor Tensor::alloc(ElemKind kind, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.kind_ = kind;
  t.shape_.assign(shape.begin(), shape.end());
  t.count_ = numElements(shape);
  size_t words = (size_t(t.count_) * byteSize(kind) + 7) / 8;
  t.storage_ = std::shared_ptr<uint64_t[]>(new uint64_t[words ? words : 1]);
  return t;
}

Tensor Tensor::zeros(ElemKind kind, llvm::ArrayRef<int64_t> shape) {
  Tensor t = alloc(kind, shape);
  std::memset(t.rawMut(), 0, size_t(t.count_) * byteSize(kind));
  return t;
}

Tensor Tensor::scalarInt(ElemKind kind, int64_t value) {
  Tensor t = alloc(kind, {});
  t.setBits(0, kind == ElemKind::I1 ? uint64_t(value & 1) : uint64_t(value));
  return t;
}

Tensor Tensor::scalarFloat(ElemKind kind, double value) {
  Tensor t = alloc(kind, {});
  if (kind == ElemKind::F64) {
    std::memcpy(t.rawMut(), &value, 8);
  } else if (kind == ElemKind::F32) {
    float f = float(value);
    std::memcpy(t.rawMut(), &f, 4);
  } else {
    t.setBits(0, encodeFloat(value, *floatFormatOf(kind)));
  }
  return t;
}

Tensor Tensor::scalarPtr(uint64_t address) {
  Tensor t = alloc(ElemKind::Ptr, {});
  t.setBits(0, address);
  return t;
}

Tensor Tensor::reshaped(llvm::ArrayRef<int64_t> shape) const {
  Tensor t = *this;
  t.shape_.assign(shape.begin(), shape.end());
  return t;
}

uint64_t Tensor::bitsAt(int64_t i) const {
  switch (byteSize(kind_)) {
  case 1: return data<uint8_t>()[i];
  case 2: return data<uint16_t>()[i];
  case 4: return data<uint32_t>()[i];
  default: return data<uint64_t>()[i];
  }
}

void Tensor::setBits(int64_t i, uint64_t bits) {
  switch (byteSize(kind_)) {
  case 1: dataMut<uint8_t>()[i] = uint8_t(bits); break;
  case 2: dataMut<uint16_t>()[i] = uint16_t(bits); break;
  case 4: dataMut<uint32_t>()[i] = uint32_t(bits); break;
  default: dataMut<uint64_t>()[i] = bits; break;
  }
}

int64_t Tensor::intAt(int64_t i) const {
  uint64_t b = bitsAt(i);
  unsigned w = kind_ == ElemKind::Ptr ? 64 : intBits(kind_);
  if (w == 64)
    return int64_t(b);
  return int64_t(b << (64 - w)) >> (64 - w);
}

uint64_t Tensor::uintAt(int64_t i) const {
  uint64_t b = bitsAt(i);
  return kind_ == ElemKind::I1 ? (b & 1) : b;
}

double Tensor::floatAt(int64_t i) const {
  if (kind_ == ElemKind::F64)
    return data<double>()[i];
  if (kind_ == ElemKind::F32)
    return data<float>()[i];
  if (const FloatFormat *f = floatFormatOf(kind_))
    return decodeFloat(uint32_t(bitsAt(i)), *f);
  return double(intAt(i));
}

std::string gridSizeProblem(unsigned axis, int64_t size) {
  const char *name = axis == 0 ? "x" : axis == 1 ? "y" : "z";
  if (size < 0)
    return std::string("the grid's ") + name + " size must not be negative";
  if (size > kMaxGrid[axis])
    return std::string("the grid's ") + name + " size " + std::to_string(size) +
           " exceeds " + std::to_string(kMaxGrid[axis]) + " (CUDA's limit)";
  return "";
}

} // namespace kiln::interp
