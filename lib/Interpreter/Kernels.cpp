//===- Kernels.cpp - conversions and data movement on whole tensors -------===//
#include "Kernels.h"

#include <cmath>

namespace kiln::interp::detail {

namespace {

/// Reads every element of an integer or float tensor as an exact double /
/// int64, then writes them in the target kind: two simple passes instead of
/// a loop per (source, target) pair of kinds.
void toDoubles(const Tensor &in, std::vector<double> &out) {
  int64_t n = in.numel();
  out.resize(n);
  visitFloat(in.kind(), [&](auto ft) {
    using FT = decltype(ft);
    const auto *src = in.data<typename FT::S>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = double(FT::dec(src[i]));
  });
}

/// Float -> integer as NVIDIA GPUs convert (PTX cvt.rzi, as measured on an
/// H200): truncate toward zero and saturate to the destination's range. LLVM
/// has no 8-bit (or 1-bit) conversion on NVPTX: it converts to 16 bits and
/// keeps the low bits. NaN gives 0 from a float of at most 32 bits into at
/// most 32 bits; the 64-bit and f64 conversions give the destination's
/// 100...0 pattern instead (INT64_MIN for i64 and u64 alike).
uint64_t gpuFloatToInt(double d, unsigned bits, bool dstUnsigned, bool f64Source) {
  unsigned w = bits < 16 ? 16 : bits;
  uint64_t signBit = uint64_t(1) << (w - 1);
  if (std::isnan(d))
    return f64Source || w == 64 ? signBit : 0;
  d = std::trunc(d);
  double span = std::ldexp(1.0, w); // 2^w
  if (dstUnsigned) {
    if (d <= 0)
      return 0;
    return d >= span ? (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1) : uint64_t(d);
  }
  if (d <= -span / 2)
    return 0 - signBit; // sign-extended INT_MIN of w bits
  if (d >= span / 2)
    return signBit - 1;
  return uint64_t(int64_t(d));
}

} // namespace

Tensor convertTensor(const Tensor &in, ElemKind to, bool srcUnsigned, bool dstUnsigned,
                     Round mode, bool sat) {
  int64_t n = in.numel();
  ElemKind from = in.kind();
  Tensor out = Tensor::alloc(to, in.shape());
  bool fromInt = !isFloatKind(from), toInt = !isFloatKind(to);

  if (fromInt && toInt) {
    visitInt(from, [&](auto fi) {
      using FI = decltype(fi);
      const auto *src = in.data<typename FI::S>();
      visitInt(to, [&](auto ti) {
        using TI = decltype(ti);
        auto *dst = out.dataMut<typename TI::S>();
        for (int64_t i = 0; i < n; ++i)
          dst[i] = TI::store(srcUnsigned ? FI::uval(src[i]) : uint64_t(FI::sval(src[i])));
      });
    });
    return out;
  }

  if (fromInt) { // int -> float, rounded once from the exact integer
    visitInt(from, [&](auto fi) {
      using FI = decltype(fi);
      const auto *src = in.data<typename FI::S>();
      if (to == ElemKind::F64) {
        auto *dst = out.dataMut<double>();
        for (int64_t i = 0; i < n; ++i)
          dst[i] = srcUnsigned ? double(FI::uval(src[i])) : double(FI::sval(src[i]));
        return;
      }
      if (to == ElemKind::F32 && mode == Round::NearestEven) {
        auto *dst = out.dataMut<float>();
        for (int64_t i = 0; i < n; ++i)
          dst[i] = srcUnsigned ? float(FI::uval(src[i])) : float(FI::sval(src[i]));
        return;
      }
      const FloatFormat &fmt = *floatFormatOf(to);
      for (int64_t i = 0; i < n; ++i)
        out.setBits(i, srcUnsigned ? encodeUnsigned(FI::uval(src[i]), fmt, mode)
                                   : encodeSigned(FI::sval(src[i]), fmt, mode));
    });
    return out;
  }

  // Fast paths for the conversions kernels do all the time.
  if (mode == Round::NearestEven && !sat) {
    if (from == ElemKind::F32 && to == ElemKind::F16) {
      loop1(out.dataMut<uint16_t>(), in.data<float>(), n, floatToHalf);
      return out;
    }
    if (from == ElemKind::F32 && to == ElemKind::BF16) {
      loop1(out.dataMut<uint16_t>(), in.data<float>(), n, floatToBF16);
      return out;
    }
    if (from == ElemKind::F16 && to == ElemKind::F32) {
      loop1(out.dataMut<float>(), in.data<uint16_t>(), n, halfToFloat);
      return out;
    }
    if (from == ElemKind::BF16 && to == ElemKind::F32) {
      loop1(out.dataMut<float>(), in.data<uint16_t>(), n, bf16ToFloat);
      return out;
    }
  }

  std::vector<double> vals;
  toDoubles(in, vals);
  if (toInt) {
    visitInt(to, [&](auto ti) {
      using TI = decltype(ti);
      auto *dst = out.dataMut<typename TI::S>();
      for (int64_t i = 0; i < n; ++i)
        dst[i] = TI::store(gpuFloatToInt(vals[i], TI::bits, dstUnsigned, from == ElemKind::F64));
    });
  } else if (to == ElemKind::F64) {
    std::copy(vals.begin(), vals.end(), out.dataMut<double>());
  } else if (to == ElemKind::F32) {
    auto *dst = out.dataMut<float>();
    for (int64_t i = 0; i < n; ++i)
      dst[i] = doubleToFloat(vals[i], mode);
  } else {
    const FloatFormat &fmt = *floatFormatOf(to);
    for (int64_t i = 0; i < n; ++i)
      out.setBits(i, encodeFloat(vals[i], fmt, mode, sat));
  }
  return out;
}

namespace {
/// out[idx] = in[sum(idx[d] * srcStrides[d])] for every index of outShape.
Tensor stridedGather(const Tensor &in, llvm::ArrayRef<int64_t> outShape,
                     llvm::ArrayRef<int64_t> srcStrides) {
  Tensor out = Tensor::alloc(in.kind(), outShape);
  int64_t n = out.numel();
  if (n == 0)
    return out;
  unsigned rank = outShape.size();
  visitBytes(in.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    const T *src = in.data<T>();
    T *dst = out.dataMut<T>();
    if (rank == 0) {
      dst[0] = src[0];
      return;
    }
    int64_t inner = outShape[rank - 1], innerStride = srcStrides[rank - 1];
    llvm::SmallVector<int64_t, 4> idx(rank, 0);
    int64_t base = 0;
    for (int64_t o = 0; o < n; o += inner) {
      for (int64_t j = 0; j < inner; ++j)
        dst[o + j] = src[base + j * innerStride];
      // Advance the odometer over the outer dimensions.
      for (int d = int(rank) - 2; d >= 0; --d) {
        base += srcStrides[d];
        if (++idx[d] < outShape[d])
          break;
        base -= srcStrides[d] * outShape[d];
        idx[d] = 0;
      }
    }
  });
  return out;
}

Shape contiguousStrides(llvm::ArrayRef<int64_t> shape) {
  Shape s(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}
} // namespace

Tensor broadcastTo(const Tensor &in, llvm::ArrayRef<int64_t> shape) {
  if (in.shape() == shape)
    return in;
  if (in.numel() == 1)
    return splat(in, shape);
  Shape strides = contiguousStrides(in.shape());
  unsigned lead = shape.size() - in.rank(); // implicit leading dimensions
  Shape src(shape.size(), 0);
  for (unsigned d = 0; d < in.rank(); ++d)
    src[lead + d] = in.shape()[d] == 1 ? 0 : strides[d];
  return stridedGather(in, shape, src);
}

Tensor permute(const Tensor &in, llvm::ArrayRef<int32_t> order) {
  Shape strides = contiguousStrides(in.shape());
  Shape shape, src;
  for (int32_t d : order) {
    shape.push_back(in.shape()[d]);
    src.push_back(strides[d]);
  }
  return stridedGather(in, shape, src);
}

Tensor selectAlong(const Tensor &in, unsigned axis, llvm::ArrayRef<int64_t> positions) {
  llvm::ArrayRef<int64_t> s = in.shape();
  int64_t outer = numElements(s.take_front(axis)), len = s[axis];
  int64_t inner = numElements(s.drop_front(axis + 1));
  Shape shape(s.begin(), s.end());
  shape[axis] = positions.size();
  Tensor out = Tensor::alloc(in.kind(), shape);
  size_t chunk = size_t(inner) * in.elemBytes();
  const uint8_t *src = in.raw();
  uint8_t *dst = out.rawMut();
  for (int64_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < positions.size(); ++j)
      std::memcpy(dst + (o * positions.size() + j) * chunk,
                  src + (o * len + positions[j]) * chunk, chunk);
  return out;
}

void scatterAlong(Tensor &dst, const Tensor &part, unsigned axis,
                  llvm::ArrayRef<int64_t> positions) {
  llvm::ArrayRef<int64_t> s = dst.shape();
  int64_t outer = numElements(s.take_front(axis)), len = s[axis];
  int64_t inner = numElements(s.drop_front(axis + 1));
  size_t chunk = size_t(inner) * dst.elemBytes();
  const uint8_t *src = part.raw();
  uint8_t *out = dst.rawMut();
  for (int64_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < positions.size(); ++j)
      std::memcpy(out + (o * len + positions[j]) * chunk,
                  src + (o * positions.size() + j) * chunk, chunk);
}

Tensor splat(const Tensor &scalar, llvm::ArrayRef<int64_t> shape) {
  Tensor out = Tensor::alloc(scalar.kind(), shape);
  int64_t n = out.numel();
  visitBytes(scalar.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    T v = scalar.data<T>()[0];
    T *dst = out.dataMut<T>();
    for (int64_t i = 0; i < n; ++i)
      dst[i] = v;
  });
  return out;
}

} // namespace kiln::interp::detail
