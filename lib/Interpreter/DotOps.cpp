//===- DotOps.cpp - tt.dot and tt.dot_scaled ------------------------------===//
//
// d = a * b + c, accumulated in the accumulator's type, k in order:
//  - f16/bf16/fp8 inputs: products are exact in f32, so each step is one
//    f32 rounding (what an FMA gives);
//  - f32 inputs: product and sum in f64, rounded to f32 per step, whatever
//    inputPrecision says (tf32 operands are not truncated: the result is at
//    least as accurate as the GPU's);
//  - an f16/bf16 accumulator is rounded to its type after every step;
//  - integer inputs accumulate with wrap-around in the accumulator's width.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include <cmath>

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

std::vector<float> toFloats(const Tensor &t) {
  std::vector<float> v(t.numel());
  visitFloat(t.kind(), [&](auto ft) {
    using FT = decltype(ft);
    const auto *s = t.data<typename FT::S>();
    for (int64_t i = 0; i < t.numel(); ++i)
      v[i] = float(FT::dec(s[i]));
  });
  return v;
}

struct Dims {
  int64_t batch, m, k, n;
};

/// Float matmul on row-major float matrices; `acc` holds c on entry.
void matmulF32(const Dims &d, const std::vector<float> &a, const std::vector<float> &b,
               std::vector<float> &acc, bool exactProducts, ElemKind accKind) {
  bool roundAcc = accKind != ElemKind::F32;
  for (int64_t bt = 0; bt < d.batch; ++bt)
    for (int64_t i = 0; i < d.m; ++i) {
      float *row = &acc[(bt * d.m + i) * d.n];
      for (int64_t kk = 0; kk < d.k; ++kk) {
        float av = a[(bt * d.m + i) * d.k + kk];
        const float *brow = &b[(bt * d.k + kk) * d.n];
        if (exactProducts) {
          for (int64_t j = 0; j < d.n; ++j)
            row[j] += av * brow[j];
        } else {
          for (int64_t j = 0; j < d.n; ++j)
            row[j] = float(double(row[j]) + double(av) * double(brow[j]));
        }
        if (roundAcc)
          visitFloat(accKind, [&](auto ft) {
            using FT = decltype(ft);
            for (int64_t j = 0; j < d.n; ++j)
              row[j] = float(FT::dec(FT::enc(row[j])));
          });
      }
    }
}

Tensor fromFloats(const std::vector<float> &v, ElemKind kind, llvm::ArrayRef<int64_t> shape) {
  Tensor out = Tensor::alloc(kind, shape);
  visitFloat(kind, [&](auto ft) {
    using FT = decltype(ft);
    auto *d = out.dataMut<typename FT::S>();
    for (size_t i = 0; i < v.size(); ++i)
      d[i] = FT::enc(typename FT::C(v[i]));
  });
  return out;
}

Dims dimsOf(const Tensor &a, const Tensor &b) {
  unsigned r = a.rank();
  return {r == 3 ? a.shape()[0] : 1, a.shape()[r - 2], a.shape()[r - 1], b.shape()[r - 1]};
}

LogicalResult execDot(Exec &ex, Operation *op) {
  auto dot = cast<tt::DotOp>(op);
  Tensor a = ex.tensor(dot.getA()), b = ex.tensor(dot.getB()), c = ex.tensor(dot.getC());
  Dims d = dimsOf(a, b);
  ElemKind accKind = c.kind();
  if (isIntKind(accKind)) {
    std::vector<int64_t> acc(c.numel());
    for (int64_t i = 0; i < c.numel(); ++i)
      acc[i] = c.intAt(i);
    std::vector<int64_t> av(a.numel()), bv(b.numel());
    for (int64_t i = 0; i < a.numel(); ++i)
      av[i] = a.intAt(i);
    for (int64_t i = 0; i < b.numel(); ++i)
      bv[i] = b.intAt(i);
    for (int64_t bt = 0; bt < d.batch; ++bt)
      for (int64_t i = 0; i < d.m; ++i)
        for (int64_t kk = 0; kk < d.k; ++kk) {
          uint64_t x = uint64_t(av[(bt * d.m + i) * d.k + kk]);
          for (int64_t j = 0; j < d.n; ++j)
            acc[(bt * d.m + i) * d.n + j] += int64_t(x * uint64_t(bv[(bt * d.k + kk) * d.n + j]));
        }
    Tensor out = Tensor::alloc(accKind, c.shape());
    for (int64_t i = 0; i < c.numel(); ++i)
      out.setBits(i, uint64_t(acc[i]));
    ex.set(dot.getD(), std::move(out));
    return success();
  }
  if (!isFloatKind(a.kind()) || !isFloatKind(b.kind()))
    return ex.fail(op, "mixed integer and float operands are not supported");
  if (accKind == ElemKind::F64) {
    std::vector<double> av(a.numel()), bv(b.numel()), acc(c.numel());
    for (int64_t i = 0; i < a.numel(); ++i)
      av[i] = a.floatAt(i);
    for (int64_t i = 0; i < b.numel(); ++i)
      bv[i] = b.floatAt(i);
    for (int64_t i = 0; i < c.numel(); ++i)
      acc[i] = c.floatAt(i);
    for (int64_t bt = 0; bt < d.batch; ++bt)
      for (int64_t i = 0; i < d.m; ++i)
        for (int64_t kk = 0; kk < d.k; ++kk) {
          double x = av[(bt * d.m + i) * d.k + kk];
          for (int64_t j = 0; j < d.n; ++j)
            acc[(bt * d.m + i) * d.n + j] = std::fma(x, bv[(bt * d.k + kk) * d.n + j],
                                                     acc[(bt * d.m + i) * d.n + j]);
        }
    Tensor out = Tensor::alloc(ElemKind::F64, c.shape());
    std::copy(acc.begin(), acc.end(), out.dataMut<double>());
    ex.set(dot.getD(), std::move(out));
    return success();
  }
  std::vector<float> av = toFloats(a), bv = toFloats(b), acc = toFloats(c);
  bool exact = a.kind() != ElemKind::F32 && b.kind() != ElemKind::F32 &&
               a.kind() != ElemKind::F64 && b.kind() != ElemKind::F64;
  matmulF32(d, av, bv, acc, exact, accKind);
  ex.set(dot.getD(), fromFloats(acc, accKind, c.shape()));
  return success();
}

//===----------------------------------------------------------------------===//
// tt.dot_scaled
//===----------------------------------------------------------------------===//

float e2m1Value(unsigned nibble) {
  static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  return (nibble & 8) ? -mag[nibble & 7] : mag[nibble & 7];
}

/// Decodes one operand of dot_scaled into a float matrix of `rows` x `cols`
/// (the logical shape: M x K for lhs, K x N for rhs). fp4 (e2m1) holds two
/// values per byte, the low nibble first, packed along K when kPack is set
/// and along the other dimension otherwise.
bool decodeScaledOperand(const Tensor &t, tt::ScaleDotElemType type, bool isLhs, bool kPack,
                         std::vector<float> &out, int64_t &rows, int64_t &cols,
                         std::string &err) {
  rows = t.shape()[0];
  cols = t.shape()[1];
  using E = tt::ScaleDotElemType;
  switch (type) {
  case E::E2M1: {
    bool alongCols = isLhs == kPack; // lhs packs along K (its columns)
    int64_t r = alongCols ? rows : rows * 2, c = alongCols ? cols * 2 : cols;
    out.assign(r * c, 0.0f);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        uint8_t byte = uint8_t(t.bitsAt(i * cols + j));
        float lo = e2m1Value(byte & 15), hi = e2m1Value(byte >> 4);
        if (alongCols) {
          out[i * c + 2 * j] = lo;
          out[i * c + 2 * j + 1] = hi;
        } else {
          out[(2 * i) * c + j] = lo;
          out[(2 * i + 1) * c + j] = hi;
        }
      }
    rows = r;
    cols = c;
    return true;
  }
  case E::E4M3:
  case E::E5M2: {
    const FloatFormat &f = type == E::E4M3 ? kFormatF8E4M3FN : kFormatF8E5M2;
    out.resize(t.numel());
    for (int64_t i = 0; i < t.numel(); ++i)
      out[i] = float(decodeFloat(uint32_t(t.bitsAt(i)) & 0xff, f));
    return true;
  }
  case E::BF16:
  case E::FP16:
    out = toFloats(t);
    return true;
  default:
    err = "element type " + tt::stringifyScaleDotElemType(type).str() +
          " of tt.dot_scaled is not supported by the interpreter";
    return false;
  }
}

/// e8m0 scale: 2^(s - 127); 255 is NaN.
float scaleValue(uint8_t s) { return s == 255 ? NAN : std::ldexp(1.0f, int(s) - 127); }

LogicalResult execDotScaled(Exec &ex, Operation *op) {
  auto dot = cast<tt::DotScaledOp>(op);
  if (dot.getA().getType().getRank() != 2)
    return ex.fail(op, "only 2-D tt.dot_scaled is supported");
  Tensor a = ex.tensor(dot.getA()), b = ex.tensor(dot.getB()), c = ex.tensor(dot.getC());
  std::vector<float> av, bv;
  int64_t m, k, k2, n;
  std::string err;
  if (!decodeScaledOperand(a, dot.getAElemType(), true, dot.getLhsKPack(), av, m, k, err) ||
      !decodeScaledOperand(b, dot.getBElemType(), false, dot.getRhsKPack(), bv, k2, n, err))
    return ex.fail(op, err);
  if (k != k2)
    return ex.fail(op, "operands disagree on K (" + llvm::Twine(k) + " vs " + llvm::Twine(k2) + ")");
  // Scales: lhs [M, K/32], rhs [N, K/32], one per 32 elements of K.
  if (dot.getAScale()) {
    Tensor s = ex.tensor(dot.getAScale());
    int64_t groups = s.shape()[1];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        av[i * k + kk] *= scaleValue(uint8_t(s.bitsAt(i * groups + kk * groups / k)));
  }
  if (dot.getBScale()) {
    Tensor s = ex.tensor(dot.getBScale());
    int64_t groups = s.shape()[1];
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < n; ++j)
        bv[kk * n + j] *= scaleValue(uint8_t(s.bitsAt(j * groups + kk * groups / k)));
  }
  std::vector<float> acc = toFloats(c);
  matmulF32({1, m, k, n}, av, bv, acc, false, c.kind());
  ex.set(dot.getD(), fromFloats(acc, c.kind(), c.shape()));
  return success();
}

} // namespace

void registerDotHandlers(HandlerMap &m) {
  addHandler<tt::DotOp>(m, execDot);
  addHandler<tt::DotScaledOp>(m, execDotScaled);
}

} // namespace kiln::interp::detail
