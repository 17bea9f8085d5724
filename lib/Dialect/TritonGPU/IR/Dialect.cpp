//===- Dialect.cpp - the ttg dialect and its module verifier ------------===//
//
// The dialect, its attribute aliases (Triton's: #blocked, #linear, #shared,
// #smem), the layout inference tt's verifiers ask for, and the check of
// every layout against the module attributes.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace kiln::ttg;

#include "kiln/Dialect/TritonGPU/IR/Enums.cpp.inc"
#include "kiln/Dialect/TritonGPU/IR/Dialect.cpp.inc"

namespace {

struct TritonGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const final {
    // Slices and dot operands print inline, as in Triton, with their
    // parent's alias.
    if (isa<NvidiaMmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<SharedEncodingInterface>(attr))
      os << "shared";
    else if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<LinearEncodingAttr>(attr))
      os << "linear";
    else if (isa<SharedMemorySpaceAttr>(attr))
      os << "smem";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};

struct TritonGPUInferLayoutInterface : public kiln::tt::DialectInferLayoutInterface {
  using DialectInferLayoutInterface::DialectInferLayoutInterface;

  Attribute inferReduceEncoding(Attribute src, unsigned axis) const final {
    // A malformed source (wrong rank, not distributed) is reported by the
    // module verifier; no slice of it is inferred.
    auto distributed = dyn_cast<DistributedEncodingInterface>(src);
    if (!distributed || distributed.getRank() < 2 || axis >= distributed.getRank())
      return {};
    return SliceEncodingAttr::get(src.getContext(), axis, distributed);
  }

  FailureOr<Attribute>
  inferExpandDimsEncoding(Attribute src, unsigned axis,
                          function_ref<InFlightDiagnostic()> emitError) const final {
    auto slice = dyn_cast<SliceEncodingAttr>(src);
    if (!slice || slice.getDim() != axis)
      return emitError() << "source encoding must be a #ttg.slice along dimension " << axis
                         << ", got " << src;
    return Attribute(slice.getParent());
  }
};

struct TritonGPUVerifyLayoutInterface : public kiln::tt::DialectVerifyLayoutInterface {
  using DialectVerifyLayoutInterface::DialectVerifyLayoutInterface;

  LogicalResult verifyValueType(Type type, Operation *op,
                                function_ref<InFlightDiagnostic()> emitError) const final {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return verifyTensor(tensor, op, emitError);
    if (auto memdesc = dyn_cast<MemDescType>(type))
      return verifyCTAs(cast<LayoutEncodingInterface>(memdesc.getEncoding()), op, emitError);
    return success();
  }

private:
  static LogicalResult verifyTensor(RankedTensorType tensor, Operation *op,
                                    function_ref<InFlightDiagnostic()> emitError) {
    Attribute encoding = tensor.getEncoding();
    if (isa<SharedEncodingInterface>(encoding))
      return emitError() << "shared-memory encoding " << encoding
                         << " belongs on a !ttg.memdesc, not on a tensor";
    auto layout = dyn_cast<DistributedEncodingInterface>(encoding);
    if (!layout)
      return emitError() << encoding << " is not a tensor layout";
    if (layout.getRank() != tensor.getRank())
      return emitError() << "layout " << encoding << " has rank " << layout.getRank()
                         << " but the tensor has rank " << tensor.getRank();
    unsigned threadsPerWarp = lookupThreadsPerWarp(op);
    if (layout.getNumLanes() != threadsPerWarp)
      return emitError() << "layout " << encoding << " spans " << layout.getNumLanes()
                         << " lanes but the module has \""
                         << TritonGPUDialect::kThreadsPerWarpAttr << "\" = " << threadsPerWarp;
    std::optional<unsigned> numWarps = lookupNumWarps(op);
    if (!numWarps)
      return emitError() << "layout " << encoding << " needs \""
                         << TritonGPUDialect::kNumWarpsAttr
                         << "\" on the enclosing tt.func or module";
    if (layout.getNumWarps() != *numWarps)
      return emitError() << "layout " << encoding << " spans " << layout.getNumWarps()
                         << " warps but \"" << TritonGPUDialect::kNumWarpsAttr << "\" is "
                         << *numWarps;
    return verifyCTAs(layout, op, emitError);
  }

  static LogicalResult verifyCTAs(LayoutEncodingInterface layout, Operation *op,
                                  function_ref<InFlightDiagnostic()> emitError) {
    unsigned numCTAs = lookupNumCTAs(op);
    if (layout.getNumCTAs() == numCTAs)
      return success();
    return emitError() << "layout " << layout << " spans " << layout.getNumCTAs()
                       << " CTAs but the module has \"" << TritonGPUDialect::kNumCTAsAttr
                       << "\" = " << numCTAs;
  }
};

/// The value of integer attribute `name` on the nearest of `op` and its
/// ancestors that has it, looking only at ops of type `Scopes...`.
template <typename... Scopes>
std::optional<unsigned> lookupIntAttr(Operation *op, StringRef name) {
  for (; op; op = op->getParentOp())
    if (isa<Scopes...>(op))
      if (auto value = op->getAttrOfType<IntegerAttr>(name))
        return static_cast<unsigned>(value.getValue().getZExtValue());
  return std::nullopt;
}

} // namespace

void TritonGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/TritonGPU/IR/Ops.cpp.inc"
      >();
  addInterfaces<TritonGPUOpAsmInterface, TritonGPUInferLayoutInterface,
                TritonGPUVerifyLayoutInterface>();
}

std::optional<unsigned> kiln::ttg::lookupNumWarps(Operation *op) {
  // Inside a partition of a ttg.warp_specialize: the partition's warps.
  for (Operation *at = op; at; at = at->getParentOp())
    if (auto partitions = dyn_cast_or_null<WarpSpecializePartitionsOp>(at->getParentOp())) {
      auto ws = cast<WarpSpecializeOp>(partitions->getParentOp());
      unsigned index = at->getParentRegion()->getRegionNumber();
      if (index < ws.getPartitionNumWarps().size())
        return unsigned(ws.getPartitionNumWarps()[index]);
    }
  return lookupIntAttr<ModuleOp, kiln::tt::FuncOp>(op, TritonGPUDialect::kNumWarpsAttr);
}

unsigned kiln::ttg::lookupThreadsPerWarp(Operation *op) {
  return lookupIntAttr<ModuleOp>(op, TritonGPUDialect::kThreadsPerWarpAttr).value_or(32);
}

unsigned kiln::ttg::lookupNumCTAs(Operation *op) {
  return lookupIntAttr<ModuleOp>(op, TritonGPUDialect::kNumCTAsAttr).value_or(1);
}

unsigned kiln::ttg::lookupClusterCTAs(Operation *op) {
  if (std::optional<unsigned> cluster =
          lookupIntAttr<ModuleOp>(op, TritonGPUDialect::kClusterCTAsAttr))
    return *cluster;
  return lookupNumCTAs(op);
}

// The four attributes Triton's passes read: the integers must be powers of
// two, and each may only sit where Triton looks for it.
LogicalResult TritonGPUDialect::verifyOperationAttribute(Operation *op,
                                                         NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == kTargetAttr) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError() << "'" << name << "' belongs on the module";
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a string, got "
                               << attr.getValue();
    return success();
  }
  bool onFunc = name == kNumWarpsAttr;
  if (!onFunc && name != kThreadsPerWarpAttr && name != kNumCTAsAttr &&
      name != kClusterCTAsAttr)
    return success();
  if (!isa<ModuleOp>(op) && !(onFunc && isa<kiln::tt::FuncOp>(op)))
    return op->emitOpError() << "'" << name << "' belongs on the module"
                             << (onFunc ? " or a tt.func" : "");
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !isa<IntegerType>(value.getType()))
    return op->emitOpError() << "'" << name << "' must be an integer, got "
                             << attr.getValue();
  int64_t v = value.getValue().isSignedIntN(32) ? value.getValue().getSExtValue() : -1;
  if (v < 1 || v > (1 << 16) || !llvm::isPowerOf2_64(v))
    return op->emitOpError() << "'" << name << "' must be a power of two up to 65536, got "
                             << attr.getValue();
  // Clusters of CTAs that each run the program alone have one-CTA layouts.
  auto numCTAs = op->getAttrOfType<IntegerAttr>(kNumCTAsAttr);
  if (name == kClusterCTAsAttr && numCTAs && numCTAs.getInt() != 1)
    return op->emitOpError() << "'" << name << "' needs '" << kNumCTAsAttr
                             << "' = 1 (its CTAs each hold whole tensors), got "
                             << numCTAs.getInt();
  return success();
}
