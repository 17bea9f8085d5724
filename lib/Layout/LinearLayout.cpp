//===- LinearLayout.cpp - construction, evaluation and reshaping ----------===//
//
// The algebra (compose, inverses, quotients, division) is in
// LinearLayoutAlgebra.cpp.
//
//===----------------------------------------------------------------------===//
#include "kiln/Layout/LinearLayout.h"

#include "kiln/Layout/BitMatrix.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::StringRef;

std::string dimName(unsigned i) { return "dim" + std::to_string(i); }

llvm::SmallVector<std::string> standardDimNames(unsigned rank) {
  llvm::SmallVector<std::string> names;
  for (unsigned i = 0; i < rank; ++i)
    names.push_back(dimName(i));
  return names;
}

namespace {
constexpr int32_t kMaxDimSize = int32_t(1) << 30;
constexpr unsigned kMaxTotalBits = 63;

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::report_fatal_error("kiln layout: internal error: " + what);
}

std::string join(ArrayRef<StringRef> names) {
  std::string s;
  for (auto [i, n] : llvm::enumerate(names))
    s += (i ? ", " : "") + n.str();
  return s;
}

// The names must be a permutation of `have`.
void checkPermutation(ArrayRef<StringRef> names, ArrayRef<StringRef> have, StringRef what) {
  llvm::StringSet<> seen;
  bool ok = names.size() == have.size();
  for (StringRef n : names)
    ok = ok && llvm::is_contained(have, n) && seen.insert(n).second;
  if (!ok)
    fail(what + " [" + join(names) + "] is not a permutation of [" + join(have) + "]");
}
} // namespace

// --- Construction ---------------------------------------------------------

std::optional<std::string> LinearLayout::verify(bool requireSurjective) const {
  llvm::StringSet<> inNames, outNames;
  unsigned outBits = 0, inBits = 0;
  for (const DimSize &o : outs) {
    if (!outNames.insert(o.name).second)
      return "output dimension '" + o.name + "' appears twice";
    if (o.size < 1 || o.size > kMaxDimSize || !llvm::isPowerOf2_32(o.size))
      return "output dimension '" + o.name + "' has size " + std::to_string(o.size) +
             ", not a power of two from 1 to 2^30";
    outBits += llvm::Log2_32(o.size);
  }
  for (const InDim &in : ins) {
    if (!inNames.insert(in.name).second)
      return "input dimension '" + in.name + "' appears twice";
    if (in.bases.size() > 30)
      return "input dimension '" + in.name + "' is larger than 2^30";
    inBits += in.bases.size();
    for (auto [i, basis] : llvm::enumerate(in.bases)) {
      if (basis.size() != outs.size())
        return "basis " + std::to_string(i) + " of '" + in.name + "' has " +
               std::to_string(basis.size()) + " coordinates for " + std::to_string(outs.size()) +
               " output dimensions";
      for (auto [c, o] : llvm::zip(basis, outs))
        if (c < 0 || c >= o.size)
          return "basis " + std::to_string(i) + " of '" + in.name + "' has coordinate " +
                 std::to_string(c) + " outside '" + o.name + "' (size " + std::to_string(o.size) +
                 ")";
    }
  }
  if (inBits > kMaxTotalBits || outBits > kMaxTotalBits)
    return std::string("the layout has more than 2^63 inputs or outputs");
  if (requireSurjective && !isSurjective())
    return "the layout does not reach every output element:" + toString();
  return std::nullopt;
}

llvm::Expected<LinearLayout> LinearLayout::create(std::vector<InDim> ins, std::vector<DimSize> outs,
                                                  bool requireSurjective) {
  LinearLayout ll;
  ll.ins = std::move(ins);
  ll.outs = std::move(outs);
  if (std::optional<std::string> error = ll.verify(requireSurjective))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *error);
  return ll;
}

llvm::Expected<LinearLayout> LinearLayout::create(std::vector<InDim> ins,
                                                  ArrayRef<std::string> outNames) {
  std::vector<DimSize> outs;
  for (const std::string &name : outNames)
    outs.push_back({name, 1});
  for (const InDim &in : ins)
    for (const Basis &basis : in.bases)
      for (auto [c, o] : llvm::zip(basis, outs))
        if (c >= 0 && c < kMaxDimSize)
          o.size = std::max<int32_t>(o.size, llvm::NextPowerOf2(c));
  // Anything left out of range (negative, too large) is reported by verify().
  return create(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

LinearLayout::LinearLayout(std::vector<InDim> ins, std::vector<DimSize> outs,
                           bool requireSurjective) {
  llvm::Expected<LinearLayout> ll = create(std::move(ins), std::move(outs), requireSurjective);
  if (!ll)
    fail(llvm::toString(ll.takeError()));
  *this = std::move(*ll);
}

LinearLayout::LinearLayout(std::vector<InDim> ins, ArrayRef<std::string> outNames) {
  llvm::Expected<LinearLayout> ll = create(std::move(ins), outNames);
  if (!ll)
    fail(llvm::toString(ll.takeError()));
  *this = std::move(*ll);
}

LinearLayout LinearLayout::strided1D(int32_t size, int32_t stride, StringRef in, StringRef out) {
  if (size == 0)
    return LinearLayout();
  if (size < 0 || !llvm::isPowerOf2_32(size))
    fail("strided1D size " + llvm::Twine(size) + " is not a power of two");
  InDim dim{in.str(), {}};
  for (int64_t v = 1; v < size; v *= 2)
    dim.bases.push_back({int32_t(v * stride)});
  return LinearLayout({std::move(dim)}, {out.str()});
}

LinearLayout LinearLayout::zeros1D(int32_t size, StringRef in, StringRef out, int32_t outSize) {
  if (size == 0)
    return LinearLayout();
  if (size < 0 || !llvm::isPowerOf2_32(size))
    fail("zeros1D size " + llvm::Twine(size) + " is not a power of two");
  return LinearLayout({{in.str(), std::vector<Basis>(llvm::Log2_32(size), Basis{0})}},
                      {{out.str(), outSize}}, /*requireSurjective=*/false);
}

// --- Dimensions -------------------------------------------------------------

llvm::SmallVector<StringRef> LinearLayout::getInDimNames() const {
  return llvm::to_vector(llvm::map_range(ins, [](const InDim &d) { return StringRef(d.name); }));
}

llvm::SmallVector<StringRef> LinearLayout::getOutDimNames() const {
  return llvm::to_vector(llvm::map_range(outs, [](const DimSize &d) { return StringRef(d.name); }));
}

bool LinearLayout::hasInDim(StringRef name) const {
  return llvm::any_of(ins, [&](const InDim &d) { return d.name == name; });
}

bool LinearLayout::hasOutDim(StringRef name) const {
  return llvm::any_of(outs, [&](const DimSize &d) { return d.name == name; });
}

unsigned LinearLayout::getInDimIndex(StringRef name) const {
  for (auto [i, d] : llvm::enumerate(ins))
    if (d.name == name)
      return i;
  fail("no input dimension '" + name + "' in" + toString());
}

unsigned LinearLayout::getOutDimIndex(StringRef name) const {
  for (auto [i, d] : llvm::enumerate(outs))
    if (d.name == name)
      return i;
  fail("no output dimension '" + name + "' in" + toString());
}

unsigned LinearLayout::getInDimSizeLog2(StringRef name) const {
  return ins[getInDimIndex(name)].bases.size();
}

unsigned LinearLayout::getOutDimSizeLog2(StringRef name) const {
  return llvm::Log2_32(getOutDimSize(name));
}

int32_t LinearLayout::getOutDimSize(StringRef name) const {
  return outs[getOutDimIndex(name)].size;
}

unsigned LinearLayout::getTotalInDimSizeLog2() const {
  unsigned bits = 0;
  for (const InDim &d : ins)
    bits += d.bases.size();
  return bits;
}

unsigned LinearLayout::getTotalOutDimSizeLog2() const {
  unsigned bits = 0;
  for (const DimSize &d : outs)
    bits += llvm::Log2_32(d.size);
  return bits;
}

ArrayRef<int32_t> LinearLayout::getBasis(StringRef in, unsigned pos) const {
  const InDim &d = ins[getInDimIndex(in)];
  if (pos >= d.bases.size())
    fail("'" + in + "' has no basis " + llvm::Twine(pos));
  return d.bases[pos];
}

int32_t LinearLayout::getBasis(StringRef in, unsigned pos, StringRef out) const {
  return getBasis(in, pos)[getOutDimIndex(out)];
}

// --- Flat views -------------------------------------------------------------

uint64_t LinearLayout::flatten(ArrayRef<int32_t> coords) const {
  uint64_t flat = 0;
  unsigned shift = 0;
  for (auto [c, o] : llvm::zip(coords, outs)) {
    flat |= uint64_t(c) << shift;
    shift += llvm::Log2_32(o.size);
  }
  return flat;
}

LinearLayout::Basis LinearLayout::unflatten(uint64_t flat) const {
  Basis coords;
  for (const DimSize &o : outs) {
    coords.push_back(int32_t(flat & uint64_t(o.size - 1)));
    flat >>= llvm::Log2_32(o.size);
  }
  return coords;
}

std::vector<uint64_t> LinearLayout::flatColumns() const {
  std::vector<uint64_t> columns;
  for (const InDim &d : ins)
    for (const Basis &b : d.bases)
      columns.push_back(flatten(b));
  return columns;
}

unsigned LinearLayout::rank() const { return rankOf(flatColumns()); }

// --- Evaluation ---------------------------------------------------------------

llvm::SmallVector<int32_t> LinearLayout::apply(ArrayRef<int32_t> inValues) const {
  if (inValues.size() != ins.size())
    fail("apply got " + llvm::Twine(inValues.size()) + " values for " + llvm::Twine(ins.size()) +
         " input dimensions");
  llvm::SmallVector<int32_t> result(outs.size(), 0);
  for (auto [v, d] : llvm::zip(inValues, ins)) {
    if (v < 0 || int64_t(v) >= (int64_t(1) << d.bases.size()))
      fail("value " + llvm::Twine(v) + " is outside input dimension '" + d.name + "'");
    for (auto [bit, basis] : llvm::enumerate(d.bases))
      if (v & (int32_t(1) << bit))
        for (auto [r, c] : llvm::zip(result, basis))
          r ^= c;
  }
  return result;
}

llvm::SmallVector<std::pair<std::string, int32_t>>
LinearLayout::apply(ArrayRef<std::pair<StringRef, int32_t>> inValues) const {
  llvm::SmallVector<int32_t> values(ins.size(), 0);
  for (auto [name, v] : inValues)
    values[getInDimIndex(name)] = v;
  llvm::SmallVector<std::pair<std::string, int32_t>> result;
  for (auto [o, c] : llvm::zip(outs, apply(values)))
    result.push_back({o.name, c});
  return result;
}

// --- Reordering and reshaping -------------------------------------------------

LinearLayout LinearLayout::transposeIns(ArrayRef<StringRef> order) const {
  checkPermutation(order, getInDimNames(), "input order");
  std::vector<InDim> newIns;
  for (StringRef name : order)
    newIns.push_back(ins[getInDimIndex(name)]);
  return LinearLayout(std::move(newIns), outs, /*requireSurjective=*/false);
}

LinearLayout LinearLayout::transposeOuts(ArrayRef<StringRef> order) const {
  checkPermutation(order, getOutDimNames(), "output order");
  llvm::SmallVector<unsigned> perm;
  std::vector<DimSize> newOuts;
  for (StringRef name : order) {
    perm.push_back(getOutDimIndex(name));
    newOuts.push_back(outs[perm.back()]);
  }
  std::vector<InDim> newIns = ins;
  for (InDim &d : newIns)
    for (Basis &b : d.bases)
      b = llvm::to_vector<4>(llvm::map_range(perm, [&](unsigned k) { return b[k]; }));
  return LinearLayout(std::move(newIns), std::move(newOuts), /*requireSurjective=*/false);
}

LinearLayout LinearLayout::reshapeIns(ArrayRef<DimSize> dims) const {
  std::vector<Basis> flat;
  for (const InDim &d : ins)
    llvm::append_range(flat, d.bases);
  std::vector<InDim> newIns;
  size_t next = 0;
  for (const DimSize &d : dims) {
    if (d.size < 1 || !llvm::isPowerOf2_32(d.size) || next + llvm::Log2_32(d.size) > flat.size())
      fail("reshapeIns: '" + d.name + "' of size " + llvm::Twine(d.size) + " does not fit");
    InDim in{d.name, {}};
    for (unsigned i = 0, e = llvm::Log2_32(d.size); i < e; ++i)
      in.bases.push_back(flat[next++]);
    newIns.push_back(std::move(in));
  }
  if (next != flat.size())
    fail("reshapeIns changes the total input size");
  return LinearLayout(std::move(newIns), outs, /*requireSurjective=*/false);
}

LinearLayout LinearLayout::reshapeOuts(ArrayRef<DimSize> dims) const {
  LinearLayout target;
  target.outs.assign(dims.begin(), dims.end());
  for (const DimSize &d : dims)
    if (d.size < 1 || d.size > kMaxDimSize || !llvm::isPowerOf2_32(d.size))
      fail("reshapeOuts: '" + d.name + "' has size " + llvm::Twine(d.size));
  if (target.getTotalOutDimSizeLog2() != getTotalOutDimSizeLog2())
    fail("reshapeOuts changes the total output size");
  std::vector<InDim> newIns = ins;
  for (InDim &d : newIns)
    for (Basis &b : d.bases)
      b = target.unflatten(flatten(b));
  return LinearLayout(std::move(newIns), target.outs, /*requireSurjective=*/false);
}

LinearLayout LinearLayout::flattenIns() const {
  if (ins.empty())
    return *this;
  return reshapeIns({{ins.front().name, int32_t(getTotalInDimSize())}});
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outs.empty())
    return *this;
  return reshapeOuts({{outs.front().name, int32_t(getTotalOutDimSize())}});
}

LinearLayout LinearLayout::sublayout(ArrayRef<StringRef> inNames,
                                     ArrayRef<StringRef> outNames) const {
  for (StringRef n : inNames)
    (void)getInDimIndex(n);
  for (StringRef n : outNames)
    (void)getOutDimIndex(n);
  llvm::SmallVector<unsigned> keep;
  std::vector<DimSize> newOuts;
  for (auto [k, o] : llvm::enumerate(outs))
    if (llvm::is_contained(outNames, o.name)) {
      keep.push_back(k);
      newOuts.push_back(o);
    }
  std::vector<InDim> newIns;
  for (const InDim &d : ins) {
    if (!llvm::is_contained(inNames, d.name))
      continue;
    InDim in{d.name, {}};
    for (const Basis &b : d.bases)
      in.bases.push_back(
          llvm::to_vector<4>(llvm::map_range(keep, [&](unsigned k) { return b[k]; })));
    newIns.push_back(std::move(in));
  }
  return LinearLayout(std::move(newIns), std::move(newOuts), /*requireSurjective=*/false);
}

bool LinearLayout::sublayoutIsZero(ArrayRef<StringRef> inNames,
                                   ArrayRef<StringRef> outNames) const {
  for (const InDim &d : sublayout(inNames, outNames).ins)
    for (const Basis &b : d.bases)
      if (llvm::any_of(b, [](int32_t c) { return c != 0; }))
        return false;
  return true;
}

LinearLayout LinearLayout::removeZeroBases(StringRef in) const {
  std::vector<InDim> newIns = ins;
  llvm::erase_if(newIns[getInDimIndex(in)].bases,
                 [](const Basis &b) { return llvm::all_of(b, [](int32_t c) { return c == 0; }); });
  return LinearLayout(std::move(newIns), outs, /*requireSurjective=*/false);
}

// --- Comparison and printing ----------------------------------------------------

bool operator==(const LinearLayout &a, const LinearLayout &b) {
  auto sameIn = [](const LinearLayout::InDim &x, const LinearLayout::InDim &y) {
    return x.name == y.name && x.bases == y.bases;
  };
  auto sameOut = [](const LinearLayout::DimSize &x, const LinearLayout::DimSize &y) {
    return x.name == y.name && x.size == y.size;
  };
  return llvm::equal(a.ins, b.ins, sameIn) && llvm::equal(a.outs, b.outs, sameOut);
}

std::string LinearLayout::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  auto printOuts = [&] {
    llvm::interleaveComma(outs, os,
                          [&](const DimSize &o) { os << o.name << " (size " << o.size << ")"; });
  };
  // A leading newline, as Triton does: the bases are a bulleted list.
  os << "\n";
  if (ins.empty()) {
    os << "(empty layout";
    if (!outs.empty()) {
      os << " with out dims [";
      printOuts();
      os << "]";
    }
    os << ")";
    return;
  }
  for (const InDim &d : ins) {
    if (d.bases.empty()) {
      os << " - " << d.name << " is a size 1 dimension\n";
      continue;
    }
    for (auto [i, b] : llvm::enumerate(d.bases)) {
      os << (i ? "   " : " - ") << d.name << "=" << (int64_t(1) << i) << " -> (";
      llvm::interleaveComma(b, os);
      os << ")\n";
    }
  }
  os << "where out dims are: [";
  printOuts();
  os << "]";
}

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const LinearLayout &layout) {
  layout.print(os);
  return os;
}

} // namespace kiln::layout
