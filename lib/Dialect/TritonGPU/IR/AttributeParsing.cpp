//===- AttributeParsing.cpp - helpers of the ttg attribute parsers --------===//
#include "AttributeParsing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace kiln::ttg;

namespace kiln::ttg::parsing {

// Layout parameters are bounded so that products and shifts of them fit in
// 32 bits: a power of two up to 2^30 per entry, at most 30 bases per input.

//===----------------------------------------------------------------------===//
// Parsing helpers
//===----------------------------------------------------------------------===//

/// `<{...}>`: the dictionary of an encoding, and where it starts.
ParseResult parseEncodingDict(AsmParser &parser, DictionaryAttr &dict, SMLoc &loc) {
  if (parser.parseLess())
    return failure();
  loc = parser.getCurrentLocation();
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return failure();
  return success();
}

ParseResult readUnsigned(AsmParser &parser, SMLoc loc, StringRef key, Attribute value,
                         unsigned &out) {
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !isa<IntegerType>(integer.getType()))
    return parser.emitError(loc) << "'" << key << "' must be an integer, got " << value;
  const APInt &raw = integer.getValue();
  int64_t v = raw.isSignedIntN(64) ? raw.getSExtValue() : -1;
  if (v < 0 || v > kMaxEntry)
    return parser.emitError(loc) << "'" << key << "' must be between 0 and " << kMaxEntry
                                 << ", got " << value;
  out = static_cast<unsigned>(v);
  return success();
}

ParseResult readUnsignedArray(AsmParser &parser, SMLoc loc, StringRef key, Attribute value,
                              SmallVector<unsigned> &out) {
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return parser.emitError(loc) << "'" << key << "' must be a list of integers, got "
                                 << value;
  for (Attribute element : array) {
    unsigned v;
    if (readUnsigned(parser, loc, key, element, v))
      return failure();
    out.push_back(v);
  }
  return success();
}

/// A list of bases, `[[a, b], [c, d]]`, flattened into `out`. With a known
/// `rank` every basis must have that many entries; otherwise the first basis
/// sets it (and `rank` stays 0 for an empty list).
ParseResult readBases(AsmParser &parser, SMLoc loc, StringRef key, Attribute value,
                      unsigned &rank, SmallVector<int32_t> &out) {
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return parser.emitError(loc) << "'" << key << "' must be a list of bases, got "
                                 << value;
  for (Attribute basisAttr : array) {
    SmallVector<unsigned> basis;
    if (readUnsignedArray(parser, loc, key, basisAttr, basis))
      return failure();
    if (rank == 0)
      rank = basis.size();
    if (rank == 0)
      return parser.emitError(loc) << "a basis of '" << key << "' cannot be empty";
    if (basis.size() != rank)
      return parser.emitError(loc) << "every basis of '" << key << "' must have one entry "
                                   << "per dimension (" << rank << "), got " << basisAttr;
    out.append(basis.begin(), basis.end());
  }
  return success();
}

/// A key `read` below recognised, or the failure to read its value.
FailureOr<bool> known(ParseResult read) {
  if (failed(read))
    return failure();
  return true;
}

/// Reads the keys of `dict` with `read`, which says whether it knows a key;
/// then reports an unknown key or a missing required one.
ParseResult readKeys(AsmParser &parser, SMLoc loc, StringRef mnemonic, DictionaryAttr dict,
                     ArrayRef<StringRef> required,
                     function_ref<FailureOr<bool>(StringRef, Attribute)> read) {
  for (NamedAttribute entry : dict) {
    FailureOr<bool> known = read(entry.getName().strref(), entry.getValue());
    if (failed(known))
      return failure();
    if (!*known)
      return parser.emitError(loc) << "unexpected key '" << entry.getName().strref()
                                   << "' in #ttg." << mnemonic;
  }
  for (StringRef key : required)
    if (!dict.contains(key))
      return parser.emitError(loc) << "#ttg." << mnemonic << " needs '" << key << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// Printing helpers
//===----------------------------------------------------------------------===//

void printList(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

void printBases(AsmPrinter &printer, ArrayRef<int32_t> flat, unsigned rank) {
  printer << "[";
  llvm::interleaveComma(unflattenBases(flat, rank), printer, [&](ArrayRef<int32_t> basis) {
    printer << "[";
    llvm::interleaveComma(basis, printer);
    printer << "]";
  });
  printer << "]";
}

void printCGALayout(AsmPrinter &printer, ArrayRef<int32_t> flat, unsigned rank) {
  if (flat.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, flat, rank);
}

//===----------------------------------------------------------------------===//
// Verification helpers
//===----------------------------------------------------------------------===//

LogicalResult verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError, StringRef key,
                                ArrayRef<unsigned> values) {
  for (auto [i, v] : llvm::enumerate(values))
    if (!llvm::isPowerOf2_32(v))
      return emitError() << key << "[" << i << "] = " << v << " is not a power of two";
  return success();
}

LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d]) {
      InFlightDiagnostic diag = emitError();
      diag << "order must be a permutation of [0, " << order.size() << "), got [";
      llvm::interleaveComma(order, diag);
      return diag << "]";
    }
    seen[d] = true;
  }
  return success();
}

/// Bases (flattened, `rank` entries each) that move along at most one
/// dimension each and reach every coordinate of every dimension up to the
/// largest they name, as a linear layout must: over GF(2), the values along
/// each dimension must span all its bits.
LogicalResult verifyBases(function_ref<InFlightDiagnostic()> emitError, StringRef what,
                          ArrayRef<int32_t> flat, unsigned rank) {
  if (rank == 0 || flat.size() % rank != 0)
    return emitError() << what << " must have " << rank << " entries per basis";
  SmallVector<SmallVector<uint32_t>> perDim(rank);
  for (ArrayRef<int32_t> basis : unflattenBases(flat, rank)) {
    if (llvm::count_if(basis, [](int32_t v) { return v != 0; }) > 1) {
      InFlightDiagnostic diag = emitError();
      diag << "each basis of " << what << " must move along at most one dimension, got [";
      llvm::interleaveComma(basis, diag);
      return diag << "]";
    }
    for (auto [d, v] : llvm::enumerate(basis))
      if (v != 0)
        perDim[d].push_back(static_cast<uint32_t>(v));
  }
  for (auto [d, values] : llvm::enumerate(perDim)) {
    // Gaussian elimination keyed by leading bit.
    uint32_t reduced[32] = {};
    unsigned span = 0, width = 0;
    for (uint32_t v : values) {
      width = std::max(width, 32u - llvm::countl_zero(v));
      for (int bit = 31; bit >= 0 && v; --bit) {
        if (!(v >> bit & 1))
          continue;
        if (!reduced[bit]) {
          reduced[bit] = v;
          ++span;
          break;
        }
        v ^= reduced[bit];
      }
    }
    if (span != width)
      return emitError() << what << " do not reach every coordinate of dimension " << d
                         << " below " << (1ull << width);
  }
  return success();
}

LogicalResult verifyCGA(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int32_t> flat, unsigned rank) {
  if (flat.empty())
    return success();
  if (rank != 0 && flat.size() / rank > kMaxBases)
    return emitError() << "CGALayout has more than " << kMaxBases << " bases";
  return verifyBases(emitError, "CGALayout bases", flat, rank);
}

unsigned saturatingProduct(ArrayRef<unsigned> values) {
  uint64_t product = 1;
  for (unsigned v : values)
    product = std::min<uint64_t>(product * v, std::numeric_limits<unsigned>::max());
  return static_cast<unsigned>(product);
}

} // namespace kiln::ttg::parsing
