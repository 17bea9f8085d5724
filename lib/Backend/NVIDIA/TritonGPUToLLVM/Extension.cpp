//===- Extension.cpp - NVIDIA's part of the neutral LLVM lowering ---------===//
//
// The TargetInfo of cuda targets and the lowering extension for the ops
// only NVIDIA GPUs have: the neutral lowering asks them through the
// registries of kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h, which
// registerLowering() fills.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Backend/NVIDIA/Backend.h"
#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace kiln::lowering;

namespace kiln::nvidia {
namespace {

struct FenceAsyncSharedLowering : OpConversionPattern<ttng::FenceAsyncSharedOp> {
  FenceAsyncSharedLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::FenceAsyncSharedOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    targetInfo(ctx).fenceAsyncShared(rewriter, op.getLoc(), op.getBCluster());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// bar.arrive / bar.sync with the barrier and thread count as registers.
template <typename Op>
struct NamedBarrierLowering : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool wait = std::is_same_v<Op, ttng::NamedBarrierWaitOp>;
    lowering::inlinePtx(rewriter, op.getLoc(), Type(),
                        wait ? "bar.sync $0, $1;" : "bar.arrive $0, $1;", "r,r",
                        ValueRange{adaptor.getBar(), adaptor.getNumThreads()},
                        /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

class NVIDIALowering final : public LoweringExtension {
public:
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }

  // Each CTA copies its tile of a TMA block (TMAOpToLLVM.cpp).
  bool lowersCTATiles(Operation *op) const override {
    return isa<ttng::AsyncTMACopyGlobalToLocalOp, ttng::AsyncTMACopyLocalToGlobalOp,
               ttng::AsyncTMAReduceOp>(op);
  }
  bool lowers(Operation *op, const Context &ctx) const override {
    if (isa<ttng::WarpGroupDotOp, ttng::WarpGroupDotWaitOp>(op))
      return targetInfo(ctx).hasWGMMA();
    return isTMAOp(op) || isTensorMapOp(op) || isMmaSyncDot(op) ||
           isa<ttng::FenceAsyncSharedOp, ttng::NamedBarrierArriveOp, ttng::NamedBarrierWaitOp>(op);
  }

  LogicalResult check(Operation *op, const Context &ctx) const override {
    // Another CTA's shared memory is only arrived on (and viewed, and
    // passed along); nothing else here lowers an access to it.
    if (!isa<ttng::ArriveBarrierOp, ttng::MapToRemoteBufferOp, ttg::MemDescIndexOp,
             ttg::MemDescSubsliceOp, ttg::MemDescReinterpretOp, ttg::MemDescTransOp>(op) &&
        isa_and_nonnull<ttg::TritonGPUDialect, ttng::TritonNvidiaGPUDialect>(op->getDialect()))
      for (Value operand : op->getOperands())
        if (auto type = dyn_cast<ttg::MemDescType>(operand.getType());
            type && ttng::isRemote(type))
          return op->emitError() << "op '" << op->getName()
                                 << "' cannot take a buffer of another CTA ("
                                 << "#ttng.shared_cluster_memory); only ttng.arrive_barrier does";
    if (isa<ttng::FenceAsyncSharedOp>(op)) {
      std::string why = targetInfo(ctx).asyncProxyFenceUnsupported();
      if (!why.empty())
        return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: "
                               << why;
    }
    if (isMmaSyncDot(op))
      return checkMmaSyncDot(op, ctx);
    if (isTensorMapOp(op) && !targetInfo(ctx).hasTMA())
      return op->emitError() << "op '" << op->getName()
                             << "' needs tensor maps made on the device (cuda:90 or later)";
    return checkTMALowering(op, ctx);
  }

  void populatePatterns(lowering::TypeConverter &converter, const Context &ctx,
                        RewritePatternSet &patterns) const override {
    if (targetInfo(ctx).hasWGMMA())
      populateWGMMAPatterns(converter, ctx, patterns);
    populateTMAPatterns(converter, ctx, patterns);
    populateTensorMapPatterns(converter, ctx, patterns);
    populateMmaSyncDotPatterns(converter, ctx, patterns);
    patterns.add<FenceAsyncSharedLowering>(converter, ctx);
    patterns.add<NamedBarrierLowering<ttng::NamedBarrierArriveOp>,
                 NamedBarrierLowering<ttng::NamedBarrierWaitOp>>(converter,
                                                                  &converter.getContext());
  }

  void configureTarget(ConversionTarget &target) const override {
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<ttng::TritonNvidiaGPUDialect>();
  }

  // An mbarrier's arrivals and waits are meant to race (only its init and
  // inval are plain writes), and a TMA load's write to its buffer is
  // ordered by the waits on its mbarrier, not by a CTA barrier. A TMA store
  // reads through the async proxy. A tensor map is built in the op's own
  // scratch, which the shared rule for scratch covers.
  bool sharedEffects(Operation *op, SmallVectorImpl<SharedEffect> &effects) const override {
    using Kind = SharedEffect::Kind;
    if (isa<ttng::TensormapCreateOp>(op))
      return false;
    if (isa<ttng::TMAStoreWaitOp>(op) || isTensorMapOp(op))
      return true;
    if (isa<ttng::InitBarrierOp, ttng::InvalBarrierOp>(op)) {
      effects.push_back({op->getOperand(0), Kind::Write});
      return true;
    }
    if (auto expect = dyn_cast<ttng::BarrierExpectOp>(op)) {
      effects.push_back({expect.getAlloc(), Kind::Read});
      return true;
    }
    // An arrival on another CTA's mbarrier touches none of this CTA's
    // shared memory; nor do the cluster's barrier and fence.
    if (isa<ttng::ClusterArriveOp, ttng::ClusterWaitOp, ttng::FenceMBarrierInitReleaseClusterOp>(
            op))
      return true;
    if (auto arrive = dyn_cast<ttng::ArriveBarrierOp>(op)) {
      if (!ttng::isRemote(arrive.getAlloc().getType()))
        effects.push_back({arrive.getAlloc(), Kind::Read});
      return true;
    }
    if (auto wait = dyn_cast<ttng::WaitBarrierOp>(op)) {
      effects.push_back({wait.getAlloc(), Kind::Read});
      return true;
    }
    if (auto load = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
      effects.push_back({load.getBarrier(), Kind::Read});
      effects.push_back({load.getResult(), Kind::AsyncWrite});
      return true;
    }
    if (auto store = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op)) {
      effects.push_back({store.getSrc(), Kind::ProxyRead});
      return true;
    }
    if (auto reduce = dyn_cast<ttng::AsyncTMAReduceOp>(op)) {
      effects.push_back({reduce.getSrc(), Kind::ProxyRead});
      return true;
    }
    return false;
  }

  void insertProxyFence(OpBuilder &b, Location loc) const override {
    ttng::FenceAsyncSharedOp::create(b, loc, /*bCluster=*/false);
  }

  bool isProxyFence(Operation *op) const override { return isa<ttng::FenceAsyncSharedOp>(op); }
};

} // namespace

void registerLowering() {
  static bool registered = [] {
    registerTargetInfo(
        "cuda", "\"cuda:<cc>\" (e.g. \"cuda:90\")",
        [](llvm::StringRef target) -> llvm::Expected<std::unique_ptr<TargetInfo>> {
          llvm::StringRef cc = target;
          unsigned value = 0;
          // "cuda:90", and "cuda:90a" for the arch-specific features of sm_90a.
          if (cc.consume_front("cuda:")) {
            cc.consume_back("a");
            if (!cc.getAsInteger(10, value) && value > 0)
              return std::unique_ptr<TargetInfo>(createTargetInfo(value));
          }
          return llvm::createStringError("the LLVM lowering supports ttg.target = "
                                         "\"cuda:<cc>\" (e.g. \"cuda:90\"), got \"" +
                                         target.str() + "\"");
        });
    registerLoweringExtension("cuda", "nvidia", std::make_shared<NVIDIALowering>());
    // A tensor map is made in shared memory, then copied to its global home.
    registerScratchRule([](Operation *op) -> std::optional<ScratchNeed> {
      if (isa<ttng::TensormapCreateOp>(op))
        return ScratchNeed{ttng::kTensorMapBytes, ttng::kTensorMapBytes};
      return std::nullopt;
    });
    return true;
  }();
  (void)registered;
}

} // namespace kiln::nvidia
