//===- Attributes.cpp - ttg layout encodings ------------------------------===//
//
// Parsers, printers and verifiers of the layout attributes, in Triton 3.6's
// textual form: a dictionary between angle brackets, keys in a fixed order
// when printed, `CGALayout` only when the CGA layout is not the default.
// The parsing, printing and verification helpers are in AttributeParsing.cpp.
//
//===----------------------------------------------------------------------===//
#include "AttributeParsing.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace kiln::ttg;

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/TritonGPU/IR/Attrs.cpp.inc"

#include "kiln/Dialect/TritonGPU/IR/AttrInterfaces.cpp.inc"

void TritonGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/TritonGPU/IR/Attrs.cpp.inc"
      >();
}

SmallVector<SmallVector<int32_t>> kiln::ttg::unflattenBases(ArrayRef<int32_t> flat,
                                                            unsigned rank) {
  SmallVector<SmallVector<int32_t>> bases;
  if (rank == 0)
    return bases;
  for (size_t i = 0; i + rank <= flat.size(); i += rank)
    bases.emplace_back(flat.slice(i, rank));
  return bases;
}

SmallVector<int32_t> kiln::ttg::rerankBases(ArrayRef<int32_t> flat, unsigned from, unsigned to) {
  SmallVector<int32_t> out;
  for (ArrayRef<int32_t> basis : unflattenBases(flat, from)) {
    if (to > from)
      out.append(to - from, 0);
    out.append(basis.end() - std::min(from, to), basis.end());
  }
  return out;
}


using namespace kiln::ttg::parsing;

//===----------------------------------------------------------------------===//
// #ttg.blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  Attribute cga;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    SmallVector<unsigned> *list = llvm::StringSwitch<SmallVector<unsigned> *>(key)
                                      .Case("sizePerThread", &sizePerThread)
                                      .Case("threadsPerWarp", &threadsPerWarp)
                                      .Case("warpsPerCTA", &warpsPerCTA)
                                      .Case("order", &order)
                                      .Default(nullptr);
    if (list)
      return known(readUnsignedArray(parser, loc, key, value, *list));
    if (key != "CGALayout")
      return false;
    cga = value;
    return true;
  };
  if (readKeys(parser, loc, "blocked", dict,
               {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"}, read))
    return {};
  unsigned rank = order.size();
  SmallVector<int32_t> cgaBases;
  if (cga && readBases(parser, loc, "CGALayout", cga, rank, cgaBases))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(loc, parser.getContext(), sizePerThread,
                                                threadsPerWarp, warpsPerCTA, order,
                                                cgaBases);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printList(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printList(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printList(printer, getWarpsPerCTA());
  printer << ", order = ";
  printList(printer, getOrder());
  printCGALayout(printer, getCgaLayout(), getRank());
  printer << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order,
                                          ArrayRef<int32_t> cgaLayout) {
  if (!llvm::all_equal({sizePerThread.size(), threadsPerWarp.size(), warpsPerCTA.size(),
                        order.size()}))
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and order must "
                          "have the same rank, got "
                       << sizePerThread.size() << ", " << threadsPerWarp.size() << ", "
                       << warpsPerCTA.size() << " and " << order.size();
  if (failed(verifyPowersOfTwo(emitError, "sizePerThread", sizePerThread)) ||
      failed(verifyPowersOfTwo(emitError, "threadsPerWarp", threadsPerWarp)) ||
      failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)) ||
      failed(verifyOrder(emitError, order)))
    return failure();
  return verifyCGA(emitError, cgaLayout, order.size());
}

unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }

SmallVector<SmallVector<int32_t>> BlockedEncodingAttr::getCGABases() const {
  return unflattenBases(getCgaLayout(), getRank());
}

unsigned BlockedEncodingAttr::getNumLanes() const {
  return saturatingProduct(getThreadsPerWarp());
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  return saturatingProduct(getWarpsPerCTA());
}

//===----------------------------------------------------------------------===//
// #ttg.slice
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned dim = 0;
  DistributedEncodingInterface parent;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "dim")
      return known(readUnsigned(parser, loc, key, value, dim));
    if (key != "parent")
      return false;
    parent = dyn_cast<DistributedEncodingInterface>(value);
    if (!parent)
      return parser.emitError(loc) << "the parent of a #ttg.slice must be a distributed "
                                      "encoding, got "
                                   << value;
    return true;
  };
  if (readKeys(parser, loc, "slice", dict, {"dim", "parent"}, read))
    return {};
  return parser.getChecked<SliceEncodingAttr>(loc, parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, DistributedEncodingInterface parent) {
  unsigned rank = parent.getRank();
  if (rank < 2)
    return emitError() << "the parent of a #ttg.slice must have rank 2 or more, got "
                       << rank;
  if (dim >= rank)
    return emitError() << "slice dim " << dim << " is out of range for a parent of rank "
                       << rank;
  return success();
}

unsigned SliceEncodingAttr::getRank() const { return getParent().getRank() - 1; }

SmallVector<SmallVector<int32_t>> SliceEncodingAttr::getCGABases() const {
  SmallVector<SmallVector<int32_t>> bases = getParent().getCGABases();
  for (SmallVector<int32_t> &basis : bases)
    basis.erase(basis.begin() + getDim());
  return bases;
}

unsigned SliceEncodingAttr::getNumLanes() const { return getParent().getNumLanes(); }

unsigned SliceEncodingAttr::getNumWarps() const { return getParent().getNumWarps(); }

//===----------------------------------------------------------------------===//
// #ttg.linear
//===----------------------------------------------------------------------===//

namespace {
// The input dimensions of a distributed linear layout, in printed order.
constexpr StringLiteral kLinearInputs[] = {"register", "lane", "warp", "block"};
} // namespace

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned rank = 0;
  SmallVector<int32_t> bases[4];
  // Bases are read in printed order, so the first non-empty one sets the rank.
  for (auto [i, input] : llvm::enumerate(kLinearInputs)) {
    Attribute value = dict.get(input);
    if (!value) {
      parser.emitError(loc) << "#ttg.linear needs '" << input << "'";
      return {};
    }
    if (readBases(parser, loc, input, value, rank, bases[i]))
      return {};
  }
  for (NamedAttribute entry : dict)
    if (!llvm::is_contained(kLinearInputs, entry.getName().strref())) {
      parser.emitError(loc) << "unexpected key '" << entry.getName().strref()
                            << "' in #ttg.linear";
      return {};
    }
  if (rank == 0) {
    parser.emitError(loc) << "#ttg.linear needs at least one basis to have a rank";
    return {};
  }
  return parser.getChecked<LinearEncodingAttr>(loc, parser.getContext(), rank, bases[0],
                                               bases[1], bases[2], bases[3]);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  ArrayRef<int32_t> bases[] = {getRegisterBases(), getLaneBases(), getWarpBases(),
                               getBlockBases()};
  printer << "<{";
  for (auto [i, input] : llvm::enumerate(kLinearInputs)) {
    printer << (i ? ", " : "") << input << " = ";
    printBases(printer, bases[i], getNumDims());
  }
  printer << "}>";
}

LogicalResult LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                         unsigned numDims, ArrayRef<int32_t> registerBases,
                                         ArrayRef<int32_t> laneBases,
                                         ArrayRef<int32_t> warpBases,
                                         ArrayRef<int32_t> blockBases) {
  if (numDims == 0)
    return emitError() << "#ttg.linear must have rank 1 or more";
  SmallVector<int32_t> all;
  ArrayRef<int32_t> inputs[] = {registerBases, laneBases, warpBases, blockBases};
  for (auto [input, bases] : llvm::zip(kLinearInputs, inputs)) {
    if (bases.size() % numDims != 0)
      return emitError() << "'" << input << "' bases must have " << numDims
                         << " entries each";
    if (bases.size() / numDims > kMaxBases)
      return emitError() << "'" << input << "' has more than " << kMaxBases << " bases";
    all.append(bases.begin(), bases.end());
  }
  return verifyBases(emitError, "the #ttg.linear bases", all, numDims);
}

unsigned LinearEncodingAttr::getRank() const { return getNumDims(); }

SmallVector<SmallVector<int32_t>> LinearEncodingAttr::getCGABases() const {
  return unflattenBases(getBlockBases(), getNumDims());
}

unsigned LinearEncodingAttr::getNumLanes() const {
  return 1u << (getLaneBases().size() / getNumDims());
}

unsigned LinearEncodingAttr::getNumWarps() const {
  return 1u << (getWarpBases().size() / getNumDims());
}

//===----------------------------------------------------------------------===//
// #ttg.swizzled_shared
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  Attribute cga;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    unsigned *scalar = llvm::StringSwitch<unsigned *>(key)
                           .Case("vec", &vec)
                           .Case("perPhase", &perPhase)
                           .Case("maxPhase", &maxPhase)
                           .Default(nullptr);
    if (scalar)
      return known(readUnsigned(parser, loc, key, value, *scalar));
    if (key == "order")
      return known(readUnsignedArray(parser, loc, key, value, order));
    if (key != "CGALayout")
      return false;
    cga = value;
    return true;
  };
  if (readKeys(parser, loc, "swizzled_shared", dict, {"vec", "perPhase", "maxPhase", "order"},
               read))
    return {};
  unsigned rank = order.size();
  SmallVector<int32_t> cgaBases;
  if (cga && readBases(parser, loc, "CGALayout", cga, rank, cgaBases))
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(loc, parser.getContext(), vec,
                                                       perPhase, maxPhase, order, cgaBases);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printList(printer, getOrder());
  printCGALayout(printer, getCgaLayout(), getRank());
  printer << "}>";
}

LogicalResult
SwizzledSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned vec, unsigned perPhase, unsigned maxPhase,
                                   ArrayRef<unsigned> order, ArrayRef<int32_t> cgaLayout) {
  for (auto [key, value] : {std::pair<StringRef, unsigned>{"vec", vec},
                            {"perPhase", perPhase}, {"maxPhase", maxPhase}})
    if (!llvm::isPowerOf2_32(value))
      return emitError() << key << " = " << value << " is not a power of two";
  if (failed(verifyOrder(emitError, order)))
    return failure();
  return verifyCGA(emitError, cgaLayout, order.size());
}

unsigned SwizzledSharedEncodingAttr::getRank() const { return getOrder().size(); }

SmallVector<SmallVector<int32_t>> SwizzledSharedEncodingAttr::getCGABases() const {
  return unflattenBases(getCgaLayout(), getRank());
}

//===----------------------------------------------------------------------===//
// #ttg.shared_linear
//===----------------------------------------------------------------------===//

namespace {
/// The checks #ttg.shared_linear and #ttg.padded_shared share: offset and
/// block bases of `numDims` entries each that place every element of a
/// tile once and split it over CTAs by whole tiles.
LogicalResult verifyBasesEncoding(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef mnemonic, unsigned numDims,
                                  ArrayRef<int32_t> offsetBases, ArrayRef<int32_t> blockBases) {
  if (numDims == 0 || offsetBases.size() % numDims != 0 || blockBases.size() % numDims != 0)
    return emitError() << "#ttg." << mnemonic << " bases must have " << numDims
                       << " entries each";
  if (offsetBases.size() / numDims > kMaxBases)
    return emitError() << "'offset' has more than " << kMaxBases << " bases";
  llvm::Expected<SmallVector<int32_t>> cga =
      sharedLinearCGABases(offsetBases, blockBases, numDims);
  if (!cga)
    return emitError() << "#ttg." << mnemonic << ": " << llvm::toString(cga.takeError());
  return verifyCGA(emitError, *cga, numDims);
}

/// Their CGA bases in CTA tiles (none for bases the verifier rejects).
SmallVector<SmallVector<int32_t>> cgaOfBases(ArrayRef<int32_t> offsetBases,
                                             ArrayRef<int32_t> blockBases, unsigned numDims) {
  llvm::Expected<SmallVector<int32_t>> cga =
      sharedLinearCGABases(offsetBases, blockBases, numDims);
  if (!cga) {
    llvm::consumeError(cga.takeError());
    return {};
  }
  return unflattenBases(*cga, numDims);
}
} // namespace

Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict))
    return {};
  unsigned rank = 0, alignment = 16; // Gluon's default
  SmallVector<int32_t> offset, block;
  Attribute blockValue;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "offset")
      return known(readBases(parser, loc, key, value, rank, offset));
    if (key != "block")
      return false;
    blockValue = value;
    return true;
  };
  if (readKeys(parser, loc, "shared_linear", dict, {"offset"}, read))
    return {};
  // The rank comes from the offset bases; the block bases must agree.
  if (blockValue && readBases(parser, loc, "block", blockValue, rank, block))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc at = parser.getCurrentLocation();
    int64_t value = 0;
    if (parser.parseKeyword("alignment") || parser.parseEqual() || parser.parseInteger(value))
      return {};
    if (value <= 0 || value > kMaxEntry) {
      parser.emitError(at) << "'alignment' must be between 1 and " << kMaxEntry;
      return {};
    }
    alignment = unsigned(value);
  }
  if (parser.parseGreater())
    return {};
  if (rank == 0) {
    parser.emitError(loc) << "#ttg.shared_linear needs at least one offset basis";
    return {};
  }
  return parser.getChecked<SharedLinearEncodingAttr>(loc, parser.getContext(), rank, offset,
                                                     block, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases(), getNumDims());
  if (!getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases(), getNumDims());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

LogicalResult SharedLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               unsigned numDims, ArrayRef<int32_t> offsetBases,
                                               ArrayRef<int32_t> blockBases,
                                               unsigned alignment) {
  if (!llvm::isPowerOf2_32(alignment))
    return emitError() << "alignment = " << alignment << " is not a power of two";
  return verifyBasesEncoding(emitError, "shared_linear", numDims, offsetBases, blockBases);
}

unsigned SharedLinearEncodingAttr::getRank() const { return getNumDims(); }

SmallVector<SmallVector<int32_t>> SharedLinearEncodingAttr::getCGABases() const {
  return cgaOfBases(getOffsetBases(), getBlockBases(), getNumDims());
}

//===----------------------------------------------------------------------===//
// #ttg.padded_shared
//===----------------------------------------------------------------------===//

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> intervals, paddings;
  auto readPair = [&]() -> ParseResult {
    int64_t interval = 0, padding = 0;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseInteger(interval) || parser.parseColon() || parser.parsePlus() ||
        parser.parseInteger(padding))
      return failure();
    if (interval <= 0 || interval > kMaxEntry || padding <= 0 || padding > kMaxEntry)
      return parser.emitError(at) << "an interval and its padding must be between 1 and "
                                  << kMaxEntry;
    intervals.push_back(unsigned(interval));
    paddings.push_back(unsigned(padding));
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, readPair,
                                     " in the interval:+padding list"))
    return {};
  SMLoc loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return {};
  unsigned rank = 0;
  SmallVector<int32_t> offset, block;
  SmallVector<unsigned> order, shape;
  Attribute blockValue;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "offset")
      return known(readBases(parser, loc, key, value, rank, offset));
    if (key == "order")
      return known(readUnsignedArray(parser, loc, key, value, order));
    if (key == "shape")
      return known(readUnsignedArray(parser, loc, key, value, shape));
    if (key != "block")
      return false;
    blockValue = value;
    return true;
  };
  if (readKeys(parser, loc, "padded_shared", dict, {}, read))
    return {};
  if (dict.contains("offset") == (dict.contains("order") || dict.contains("shape"))) {
    parser.emitError(loc) << "#ttg.padded_shared needs either 'offset' bases or 'order' and "
                             "'shape'";
    return {};
  }
  if (dict.contains("offset")) {
    if (blockValue && readBases(parser, loc, "block", blockValue, rank, block))
      return {};
  } else {
    // The identity over `shape`, order[0] fastest.
    if (order.size() != shape.size() || order.empty()) {
      parser.emitError(loc) << "#ttg.padded_shared needs 'order' and 'shape' of one rank";
      return {};
    }
    rank = shape.size();
    for (auto [i, d] : llvm::enumerate(order)) {
      if (d >= rank || llvm::is_contained(ArrayRef(order).take_front(i), d) ||
          !llvm::isPowerOf2_32(shape[d])) {
        parser.emitError(loc) << "#ttg.padded_shared needs 'order' to be a permutation and "
                                 "'shape' powers of two";
        return {};
      }
      for (unsigned v = 1; v < shape[d]; v *= 2)
        for (unsigned i = 0; i < rank; ++i)
          offset.push_back(i == d ? int32_t(v) : 0);
    }
  }
  if (rank == 0) {
    parser.emitError(loc) << "#ttg.padded_shared needs at least one offset basis";
    return {};
  }
  SmallVector<int64_t> shape64(shape.begin(), shape.end());
  return parser.getChecked<PaddedSharedEncodingAttr>(loc, parser.getContext(), intervals,
                                                     paddings, rank, offset, block, order,
                                                     shape64);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getIntervals(), getPaddings()), printer, [&](auto pair) {
    printer << std::get<0>(pair) << ":+" << std::get<1>(pair);
  });
  printer << "] {";
  if (!getOrder().empty()) {
    printer << "order = ";
    printList(printer, getOrder());
    printer << ", shape = [";
    llvm::interleaveComma(getShape(), printer);
    printer << "]";
  } else {
    printer << "offset = ";
    printBases(printer, getOffsetBases(), getNumDims());
    printer << ", block = ";
    printBases(printer, getBlockBases(), getNumDims());
  }
  printer << "}>";
}

LogicalResult PaddedSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> intervals,
    ArrayRef<unsigned> paddings, unsigned numDims, ArrayRef<int32_t> offsetBases,
    ArrayRef<int32_t> blockBases, ArrayRef<unsigned> order, ArrayRef<int64_t> shape) {
  if (intervals.empty() || intervals.size() != paddings.size())
    return emitError() << "#ttg.padded_shared needs one padding per interval, at least one";
  for (auto [i, interval] : llvm::enumerate(intervals)) {
    if (!llvm::isPowerOf2_32(interval) || !llvm::isPowerOf2_32(paddings[i]))
      return emitError() << "interval " << interval << " and padding " << paddings[i]
                         << " must be powers of two";
    if (llvm::count(intervals, interval) > 1)
      return emitError() << "interval " << interval << " is given twice";
  }
  if (!order.empty() && (order.size() != numDims || shape.size() != numDims))
    return emitError() << "#ttg.padded_shared needs 'order' and 'shape' of rank " << numDims;
  return verifyBasesEncoding(emitError, "padded_shared", numDims, offsetBases, blockBases);
}

unsigned PaddedSharedEncodingAttr::getRank() const { return getNumDims(); }

SmallVector<SmallVector<int32_t>> PaddedSharedEncodingAttr::getCGABases() const {
  return cgaOfBases(getOffsetBases(), getBlockBases(), getNumDims());
}

SmallVector<std::pair<unsigned, unsigned>> PaddedSharedEncodingAttr::getPaddingLog2() const {
  SmallVector<std::pair<unsigned, unsigned>> result;
  for (auto [interval, padding] : llvm::zip(getIntervals(), getPaddings()))
    result.push_back({llvm::Log2_32(interval), llvm::Log2_32(padding)});
  return result;
}

int64_t PaddedSharedEncodingAttr::getPaddedSize(int64_t elements) const {
  // The pads after the last element are not needed.
  int64_t size = elements;
  for (auto [interval, padding] : getPaddingLog2())
    size += ((elements - 1) >> interval) << padding;
  return size;
}

//===----------------------------------------------------------------------===//
// #ttg.shared_memory
//===----------------------------------------------------------------------===//

// Without a parser of its own, trailing `<...>` would be silently ignored.
Attribute SharedMemorySpaceAttr::parse(AsmParser &parser, Type) {
  if (succeeded(parser.parseOptionalLess())) {
    parser.emitError(parser.getCurrentLocation(), "#ttg.shared_memory takes no parameters");
    return {};
  }
  return get(parser.getContext());
}

void SharedMemorySpaceAttr::print(AsmPrinter &) const {}

bool SharedMemorySpaceAttr::isCTALocal() const { return true; }

//===----------------------------------------------------------------------===//
// #ttg.nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned versionMajor = 0, versionMinor = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  Attribute cga;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "versionMajor")
      return known(readUnsigned(parser, loc, key, value, versionMajor));
    if (key == "versionMinor")
      return known(readUnsigned(parser, loc, key, value, versionMinor));
    if (key == "warpsPerCTA")
      return known(readUnsignedArray(parser, loc, key, value, warpsPerCTA));
    if (key == "instrShape")
      return known(readUnsignedArray(parser, loc, key, value, instrShape));
    if (key != "CGALayout")
      return false;
    cga = value;
    return true;
  };
  if (readKeys(parser, loc, "nvidia_mma", dict,
               {"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"}, read))
    return {};
  unsigned rank = warpsPerCTA.size();
  SmallVector<int32_t> cgaBases;
  if (cga && readBases(parser, loc, "CGALayout", cga, rank, cgaBases))
    return {};
  return parser.getChecked<NvidiaMmaEncodingAttr>(loc, parser.getContext(), versionMajor,
                                                  versionMinor, warpsPerCTA, cgaBases,
                                                  instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor() << ", versionMinor = " << getVersionMinor()
          << ", warpsPerCTA = ";
  printList(printer, getWarpsPerCTA());
  printCGALayout(printer, getCgaLayout(), getRank());
  printer << ", instrShape = ";
  printList(printer, getInstrShape());
  printer << "}>";
}

LogicalResult NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                            unsigned versionMajor, unsigned versionMinor,
                                            ArrayRef<unsigned> warpsPerCTA,
                                            ArrayRef<int32_t> cgaLayout,
                                            ArrayRef<unsigned> instrShape) {
  size_t rank = warpsPerCTA.size();
  if (rank < 2)
    return emitError() << "#ttg.nvidia_mma needs warpsPerCTA of rank 2 or more";
  if (failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)))
    return failure();
  if (versionMajor == 2) {
    if (instrShape.size() != rank || instrShape[rank - 2] != 16 || instrShape[rank - 1] != 8 ||
        llvm::any_of(instrShape.drop_back(2), [](unsigned v) { return v != 1; }))
      return emitError() << "#ttg.nvidia_mma version 2 needs instrShape [16, 8] (with a "
                            "leading 1 per batch dimension)";
  } else if (versionMajor == 3) {
    // Of rank 3 and more, a layout tensors are converted to and from (as
    // Triton's tests do); wgmma itself computes in rank 2.
    unsigned n = instrShape.size() == 3 ? instrShape[1] : 0;
    if (instrShape.size() != 3 || instrShape[0] != 16 || n < 8 || n > 256 ||
        !llvm::isPowerOf2_32(n) || instrShape[2] == 0)
      return emitError() << "#ttg.nvidia_mma version 3 needs instrShape [16, N, K] with N a "
                            "power of two from 8 to 256";
    // Fewer than four warps along M is a layout wgmma cannot compute in
    // (its lowering says so), but one that tensors may still be converted
    // to and from, as Triton allows (its tests do).
  } else {
    return emitError() << "#ttg.nvidia_mma versionMajor must be 2 or 3, got " << versionMajor;
  }
  (void)versionMinor;
  return verifyCGA(emitError, cgaLayout, rank);
}

unsigned NvidiaMmaEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

SmallVector<SmallVector<int32_t>> NvidiaMmaEncodingAttr::getCGABases() const {
  return unflattenBases(getCgaLayout(), getRank());
}

// A warp is 32 lanes on every NVIDIA GPU the instructions exist on.
unsigned NvidiaMmaEncodingAttr::getNumLanes() const { return 32; }

unsigned NvidiaMmaEncodingAttr::getNumWarps() const {
  return saturatingProduct(getWarpsPerCTA());
}

//===----------------------------------------------------------------------===//
// #ttg.dot_op
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned opIdx = 0, kWidth = 0;
  DistributedEncodingInterface parent;
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "opIdx")
      return known(readUnsigned(parser, loc, key, value, opIdx));
    if (key == "kWidth")
      return known(readUnsigned(parser, loc, key, value, kWidth));
    if (key != "parent")
      return false;
    if (!isa<NvidiaMmaEncodingAttr, BlockedEncodingAttr>(value))
      return parser.emitError(loc) << "kiln supports #ttg.dot_op only with a #ttg.nvidia_mma "
                                      "or #ttg.blocked parent, got "
                                   << value;
    parent = cast<DistributedEncodingInterface>(value);
    return true;
  };
  if (readKeys(parser, loc, "dot_op", dict, {"opIdx", "parent"}, read))
    return {};
  return parser.getChecked<DotOperandEncodingAttr>(loc, parser.getContext(), opIdx, parent,
                                                   kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << Attribute(getParent());
  if (getKWidth() != 0)
    printer << ", kWidth = " << getKWidth();
  printer << "}>";
}

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, DistributedEncodingInterface parent,
                                             unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "#ttg.dot_op opIdx must be 0 (A) or 1 (B), got " << opIdx;
  if (isa<BlockedEncodingAttr>(parent)) {
    // The FMA operand layout is fixed by the parent: no kWidth to choose.
    if (kWidth != 0)
      return emitError() << "#ttg.dot_op with a #ttg.blocked parent takes no kWidth";
    if (parent.getRank() < 2)
      return emitError() << "#ttg.dot_op needs a parent of rank 2 or more";
    return success();
  }
  auto mma = dyn_cast<NvidiaMmaEncodingAttr>(parent);
  if (!mma)
    return emitError() << "#ttg.dot_op needs a #ttg.nvidia_mma or #ttg.blocked parent";
  if (kWidth == 0 || kWidth > 32 || !llvm::isPowerOf2_32(kWidth))
    return emitError() << "#ttg.dot_op kWidth must be a power of two up to 32, got " << kWidth;
  if (opIdx == 1 && mma.getVersionMajor() == 3)
    return emitError() << "operand B of a version 3 #ttg.nvidia_mma is read from shared "
                          "memory and has no #ttg.dot_op layout";
  return success();
}

unsigned DotOperandEncodingAttr::getRank() const { return getParent().getRank(); }

SmallVector<SmallVector<int32_t>> DotOperandEncodingAttr::getCGABases() const {
  return getParent().getCGABases();
}

unsigned DotOperandEncodingAttr::getNumLanes() const { return getParent().getNumLanes(); }

unsigned DotOperandEncodingAttr::getNumWarps() const { return getParent().getNumWarps(); }

//===----------------------------------------------------------------------===//
// #ttg.nvmma_shared
//===----------------------------------------------------------------------===//

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseEncodingDict(parser, dict, loc))
    return {};
  unsigned swizzle = 0, bits = 0, rank = 0;
  bool transposed = false, fp4Padded = false;
  Attribute cga;
  auto readBool = [&](StringRef key, Attribute value, bool &out) -> FailureOr<bool> {
    auto b = dyn_cast<BoolAttr>(value);
    if (!b)
      return parser.emitError(loc) << "'" << key << "' must be true or false, got " << value;
    out = b.getValue();
    return true;
  };
  auto read = [&](StringRef key, Attribute value) -> FailureOr<bool> {
    if (key == "swizzlingByteWidth")
      return known(readUnsigned(parser, loc, key, value, swizzle));
    if (key == "elementBitWidth")
      return known(readUnsigned(parser, loc, key, value, bits));
    if (key == "rank")
      return known(readUnsigned(parser, loc, key, value, rank));
    if (key == "transposed")
      return readBool(key, value, transposed);
    if (key == "fp4Padded")
      return readBool(key, value, fp4Padded);
    if (key != "CGALayout")
      return false;
    cga = value;
    return true;
  };
  if (readKeys(parser, loc, "nvmma_shared", dict, {"swizzlingByteWidth", "elementBitWidth"},
               read))
    return {};
  SmallVector<int32_t> cgaBases;
  if (cga && readBases(parser, loc, "CGALayout", cga, rank, cgaBases))
    return {};
  if (rank == 0)
    rank = 2;
  return parser.getChecked<NVMMASharedEncodingAttr>(loc, parser.getContext(), swizzle,
                                                    transposed, bits, fp4Padded, rank, cgaBases);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  // As Triton prints it: the rank only when no CGALayout carries it.
  if (getCgaLayout().empty() && getLayoutRank() != 2)
    printer << ", rank = " << getLayoutRank();
  printCGALayout(printer, getCgaLayout(), getLayoutRank());
  printer << "}>";
}

LogicalResult NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              unsigned swizzlingByteWidth, bool,
                                              unsigned elementBitWidth, bool fp4Padded,
                                              unsigned layoutRank, ArrayRef<int32_t> cgaLayout) {
  if (!llvm::is_contained({0u, 32u, 64u, 128u}, swizzlingByteWidth))
    return emitError() << "swizzlingByteWidth must be 0, 32, 64 or 128, got "
                       << swizzlingByteWidth;
  if (!llvm::is_contained({4u, 8u, 16u, 32u, 64u}, elementBitWidth))
    return emitError() << "elementBitWidth must be 4, 8, 16, 32 or 64, got " << elementBitWidth;
  if (fp4Padded && elementBitWidth != 8)
    return emitError() << "fp4Padded needs elementBitWidth = 8 (two fp4 per byte)";
  if (layoutRank == 0 || layoutRank > 8)
    return emitError() << "#ttg.nvmma_shared rank must be between 1 and 8, got " << layoutRank;
  return verifyCGA(emitError, cgaLayout, layoutRank);
}

unsigned NVMMASharedEncodingAttr::getRank() const { return getLayoutRank(); }

SmallVector<SmallVector<int32_t>> NVMMASharedEncodingAttr::getCGABases() const {
  return unflattenBases(getCgaLayout(), getRank());
}

