//===- WarpSpecialize.cpp - ttg.warp_specialize: syntax and checks --------===//
//
// Triton 3.6's custom form: the captures, `default {...}`, then one
// `partition<i>(<block arguments>) num_warps(<n>) {...}` per partition, and
// the functional type of captures and results. The partitions live in a
// `ttg.warp_specialize.partitions` op that the form leaves unwritten.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace kiln::ttg;

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  // Empty while a rewrite builds the op.
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().empty())
    return WarpSpecializePartitionsOp();
  return dyn_cast<WarpSpecializePartitionsOp>(holder.front().front());
}

MutableArrayRef<Region> WarpSpecializeOp::getPartitionRegions() {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  return partitions ? partitions.getPartitionRegions() : MutableArrayRef<Region>();
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) || parser.parseKeyword("default"))
    return failure();
  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion, {}))
    return failure();

  // The partitions, numbered from 0 in order. They are parsed into regions
  // of `result` and moved into their op at the end, so that until then one
  // state owns all that was parsed: a failed parse frees it together, even
  // where the default region refers ahead to a value a partition defines.
  SmallVector<Region *> partitions;
  SmallVector<int32_t> numWarps;
  StringRef keyword;
  while (succeeded(parser.parseOptionalKeyword(&keyword))) {
    SMLoc at = parser.getCurrentLocation();
    std::string expected = "partition" + std::to_string(numWarps.size());
    if (keyword != expected)
      return parser.emitError(at, "expected '") << expected << "', got '" << keyword << "'";
    SmallVector<OpAsmParser::Argument> args;
    int32_t warps = 0;
    if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren, /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() || parser.parseInteger(warps) ||
        parser.parseRParen())
      return failure();
    numWarps.push_back(warps);
    partitions.push_back(result.addRegion());
    if (parser.parseRegion(*partitions.back(), args))
      return failure();
  }
  FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc, result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  OperationState partitionState(result.location, WarpSpecializePartitionsOp::getOperationName());
  for (Region *parsed : partitions)
    partitionState.addRegion()->takeBody(*parsed);
  result.regions.resize(1); // the default region
  Region *holder = result.addRegion();
  Block *block = new Block();
  holder->push_back(block);
  OpBuilder b(parser.getContext());
  b.setInsertionPointToStart(block);
  b.create(partitionState);
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  p << '(' << getExplicitCaptures() << ')';
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getPartitionNumWarpsAttrName()});
  p.printNewline();
  p << "default ";
  p.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  for (auto [i, region] : llvm::enumerate(getPartitionRegions())) {
    p.printNewline();
    p << "partition" << i << '(';
    llvm::interleaveComma(region.getArguments(), p,
                          [&](BlockArgument arg) { p.printRegionArgument(arg); });
    p << ") num_warps(" << getPartitionNumWarps()[i] << ") ";
    p.printRegion(region, /*printEntryBlockArgs=*/false);
  }
  p << " : ";
  p.printFunctionalType(getExplicitCaptures().getTypes(), getResultTypes());
}

LogicalResult WarpSpecializeOp::verify() {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  if (!partitions || getPartitionOpHolder().front().getOperations().size() != 1 ||
      getDefaultRegion().empty())
    return emitOpError("must hold exactly one ttg.warp_specialize.partitions op");
  MutableArrayRef<Region> regions = partitions.getPartitionRegions();
  ArrayRef<int32_t> warps = getPartitionNumWarps();
  if (warps.size() != regions.size())
    return emitOpError() << "has " << regions.size() << " partitions but " << warps.size()
                         << " partition warp counts";
  for (auto [i, n] : llvm::enumerate(warps))
    if (n < 1 || !llvm::isPowerOf2_32(uint32_t(n)))
      return emitOpError() << "partition " << i << " must have a power of two of warps, got "
                           << n;
  auto checkSize = [&](std::optional<ArrayRef<int32_t>> list, StringRef name) -> LogicalResult {
    if (list && list->size() != regions.size())
      return emitOpError() << name << " has " << list->size() << " entries for "
                           << regions.size() << " partitions";
    return success();
  };
  if (failed(checkSize(getWarpGroupStartIds(), "warpGroupStartIds")) ||
      failed(checkSize(getRequestedRegisters(), "requestedRegisters")) ||
      failed(checkSize(getActualRegisters(), "actualRegisters")))
    return failure();
  // setmaxnreg's range and granularity.
  for (auto list : {getRequestedRegisters(), getActualRegisters()})
    if (list)
      for (auto [i, r] : llvm::enumerate(*list))
        if (r < 24 || r > 256 || r % 8)
          return emitOpError() << "partition " << i << " asks for " << r
                               << " registers per thread; expected a multiple of 8 in [24, 256]";
  for (auto [i, region] : llvm::enumerate(regions)) {
    if (region.getArgumentTypes() != getExplicitCaptures().getTypes())
      return emitOpError() << "partition " << i
                           << "'s block arguments must have the captures' types";
  }
  Block &defaultEntry = getDefaultRegion().front();
  if (defaultEntry.getNumArguments())
    return emitOpError("default region takes no arguments");
  for (Block &block : getDefaultRegion())
    if (auto yield = dyn_cast_or_null<WarpYieldOp>(block.empty() ? nullptr : &block.back()))
      if (yield.getValues().getTypes() != getResultTypes())
        return yield.emitOpError("must yield values of the ttg.warp_specialize's result types");
  return success();
}
