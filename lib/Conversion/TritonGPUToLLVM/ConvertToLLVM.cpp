//===- ConvertToLLVM.cpp - the llir stage's TTGIR-to-LLVM conversion ------===//
//
// First every op is checked to have a lowering (so that a missing one is a
// located error naming it, not a legalisation failure), then two
// conversions run: TTGIR to the LLVM dialect with scf kept structurally
// (its types converted), then scf to branches. The target's TargetInfo and
// the lowering extensions registered for it (its back end's own ops, the
// plugins' ops) supply what the neutral patterns do not cover.
//
//===----------------------------------------------------------------------===//
#include "Combine.h"
#include "Elementwise.h"

#include "kiln/Analysis/AccessWidth.h"
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTTRITONGPUTOLLVM
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

// Math ops whose LLVM intrinsics every GPU backend selects natively; the
// others (exp, log, sin, ...) call the target's device library.
constexpr StringLiteral kNativeMath[] = {"math.absf", "math.absi",  "math.ceil",
                                         "math.floor", "math.trunc", "math.roundeven",
                                         "math.sqrt", "math.fma",   "math.copysign",
                                         "math.ctlz", "math.cttz",  "math.ctpop"};

/// Accesses through pointers to scalars, not block pointers, and of
/// numbers (pointer-valued elements are not lowered yet).
bool isPlainAccess(Value ptr, Type value) {
  auto pointer = dyn_cast<tt::PointerType>(getElementTypeOrSelf(ptr.getType()));
  return pointer && !isa<RankedTensorType>(pointer.getPointeeType()) &&
         getElementTypeOrSelf(value).isIntOrFloat();
}

/// A math op on floats that the target's library computes (f16 and bf16
/// through f32).
bool hasLibraryMath(Operation *op, const TargetInfo &target) {
  if (op->getNumResults() != 1)
    return false;
  Type elem = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(elem))
    return false;
  Type computed = elem.isF64() ? elem : Float32Type::get(op->getContext());
  return !target.mathFunction(op->getName().getStringRef(), computed).empty();
}

/// Buffers of numbers of at least a byte in a swizzled, linear, padded or
/// NVMMA shared layout (the encodings whose linear layouts kiln's lowering reads;
/// fp4 padding is not lowered).
bool hasLocalMemoryLowering(Operation *op) {
  auto ok = [](Type type) {
    auto desc = dyn_cast<ttg::MemDescType>(type);
    if (!desc)
      return true;
    Type element = desc.getElementType();
    auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(desc.getEncoding());
    return (isa<ttg::SwizzledSharedEncodingAttr, ttg::SharedLinearEncodingAttr,
                ttg::PaddedSharedEncodingAttr>(desc.getEncoding()) ||
            (nvmma && !nvmma.getFp4Padded())) &&
           element.isIntOrFloat() && element.getIntOrFloatBitWidth() >= 8;
  };
  return llvm::all_of(op->getOperandTypes(), ok) && llvm::all_of(op->getResultTypes(), ok);
}

bool hasLowering(Operation *op, const TargetInfo &target) {
  if (auto func = dyn_cast<tt::FuncOp>(op)) // kernels return nothing
    return !func.isPublic() || func.getFunctionType().getNumResults() == 0;
  if (auto cvt = dyn_cast<tt::FpToFpOp>(op))
    return lowering::canLowerFpToFp(op);
  if (isa<tt::CallOp, tt::PrintOp, tt::AssertOp, tt::ElementwiseInlineAsmOp,
          tt::ExternElementwiseOp, tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::ApproxDivFOp,
          tt::MulhiUIOp, tt::GridDependencyWaitOp, tt::GridDependencyLaunchDependentsOp,
          tt::ClampFOp, tt::BitcastOp, tt::IntToPtrOp, tt::PtrToIntOp>(op))
    return true;
  if (auto load = dyn_cast<tt::LoadOp>(op))
    return isPlainAccess(load.getPtr(), load.getType());
  if (auto store = dyn_cast<tt::StoreOp>(op))
    return isPlainAccess(store.getPtr(), store.getValue().getType());
  if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
    return isPlainAccess(rmw.getPtr(), rmw.getVal().getType());
  if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
    return isPlainAccess(cas.getPtr(), cas.getVal().getType());
  if (auto load = dyn_cast<tt::AtomicLoadOp>(op))
    return isPlainAccess(load.getPtr(), load.getType());
  if (auto store = dyn_cast<tt::AtomicStoreOp>(op))
    return isPlainAccess(store.getPtr(), store.getVal().getType());
  if (auto poll = dyn_cast<tt::AtomicPollOp>(op))
    return isPlainAccess(poll.getPtr(), poll.getExpected().getType());
  if (isa<tt::DotOp>(op))
    return lowering::hasDotLowering(op);
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return !isa<RankedTensorType>(constant.getType()) ||
           isa<SplatElementsAttr>(constant.getValue());
  if (isa<ttg::LocalAllocOp, ttg::LocalLoadOp, ttg::LocalStoreOp, ttg::LocalDeallocOp,
          ttg::MemDescIndexOp, ttg::MemDescTransOp, ttg::MemDescReinterpretOp,
          ttg::MemDescSubsliceOp>(op))
    return hasLocalMemoryLowering(op);
  if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op))
    return isPlainAccess(copy.getSrc(), copy.getResult().getType().getElementType()) &&
           hasLocalMemoryLowering(op);
  if (isa<ttg::AsyncCommitGroupOp, ttg::AsyncWaitOp>(op))
    return true;
  if (isa<ttg::ConvertLayoutOp, tt::TransOp, tt::ReshapeOp, tt::JoinOp, tt::SplitOp, tt::CatOp,
          tt::UnsplatOp, tt::GatherOp>(op))
    return true;
  if (isa<tt::ReturnOp, tt::GetProgramIdOp, tt::GetNumProgramsOp, tt::MakeRangeOp, tt::SplatOp,
          tt::BroadcastOp, tt::ExpandDimsOp, tt::AddPtrOp, tt::HistogramOp, tt::ReduceOp,
          tt::ReduceReturnOp, tt::ScanOp, tt::ScanReturnOp, tt::MapElementwiseOp,
          tt::MapElementwiseReturnOp, scf::ForOp, scf::IfOp, scf::YieldOp,
          scf::WhileOp, scf::ConditionOp, cf::BranchOp, cf::CondBranchOp, gpu::BarrierOp,
          ttg::BarrierOp, ttg::MemoryFenceOp, ttg::GlobalScratchAllocOp, ttg::ThreadIdOp,
          ttg::WarpSpecializeOp, ttg::WarpSpecializePartitionsOp, ttg::WarpYieldOp,
          ttg::WarpReturnOp, ub::PoisonOp>(op))
    return true;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect == "arith")
    return true;
  if (dialect == "math")
    return llvm::is_contained(kNativeMath, op->getName().getStringRef()) ||
           hasLibraryMath(op, target);
  return dialect == "llvm";
}

/// Every tensor must have a distributed layout for this module's warps.
LogicalResult checkTypes(Operation *op, unsigned warpSize, unsigned numWarps, unsigned numCTAs) {
  auto check = [&](Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    auto fail = [&](const Twine &why) {
      return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: "
                             << why;
    };
    if (!isa_and_nonnull<ttg::DistributedEncodingInterface>(tensor.getEncoding()))
      return fail("a tensor without a distributed ttg layout (run the ttgir stage first)");
    llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(tensor);
    if (!ll)
      return fail(llvm::toString(ll.takeError()));
    if (llvm::Error e = layout::verifyDistributed(*ll, warpSize, numWarps, numCTAs))
      return fail(llvm::toString(std::move(e)));
    if (llvm::Expected<layout::LinearLayout> tile = layout::ctaTile(*ll); !tile)
      return fail(llvm::toString(tile.takeError()));
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  return success();
}

/// The most elements of one tensor a thread may hold in registers: what
/// Triton's limit of 2^20 elements a tensor gives one warp of 32 threads
/// (Triton's tests compile such a kernel: 21 s and 530 MB here). Each is a
/// value of its own in the lowered IR; more can only come from a layout
/// that repeats elements in a thread's registers, and compile time grows
/// faster than their number.
constexpr int64_t kMaxElementsPerThread = 32768;

/// A located error at the first op whose result gives a thread more than
/// kMaxElementsPerThread elements of a tensor (one error for the kernel).
LogicalResult checkElementsPerThread(ModuleOp module) {
  WalkResult walk = module.walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(result.getType());
      if (!tensor || !tensor.getEncoding())
        continue;
      llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(tensor);
      if (!ll) {
        llvm::consumeError(ll.takeError()); // checkTypes reports it at its op
        continue;
      }
      int64_t elements = ll->getInDimSize(layout::kRegister);
      if (elements > kMaxElementsPerThread) {
        op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: its "
                        << tensor << " gives each thread " << elements
                        << " elements in registers; kiln lowers at most "
                        << kMaxElementsPerThread
                        << " (use more warps, a smaller block, or a layout that spreads it)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// A located error when a kernel's tensor descriptor argument cannot be
/// passed on the target.
LogicalResult checkKernelArguments(Operation *op, const TargetInfo &target) {
  auto func = dyn_cast<tt::FuncOp>(op);
  if (!func)
    return success();
  for (Type input : func.getFunctionType().getInputs())
    if (isa<tt::TensorDescType>(input) && failed(target.checkTensorDescArgument(op, input)))
      return failure();
  return success();
}

/// The kernel's dynamic shared memory, `extern __shared__` of size 0 whose
/// real size the launcher passes (`shared` in the metadata).
void declareSharedMemory(ModuleOp module) {
  auto shared = module->getAttrOfType<IntegerAttr>("ttg.shared");
  if (!shared || shared.getInt() == 0 || module.lookupSymbol(lowering::kSharedMemoryGlobal))
    return;
  OpBuilder b(module.getBodyRegion());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External,
                         lowering::kSharedMemoryGlobal, Attribute(), /*alignment=*/16,
                         /*addrSpace=*/3);
}

struct ConvertTritonGPUToLLVM
    : kiln::impl::ConvertTritonGPUToLLVMBase<ConvertTritonGPUToLLVM> {
  ConvertTritonGPUToLLVM() = default;
  explicit ConvertTritonGPUToLLVM(const CompileOptions &options) : options(options) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, scf::SCFDialect, cf::ControlFlowDialect>();
    // The module's target is not known yet: every registered extension's.
    for (const LoweringExtension *extension : loweringExtensions())
      extension->getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto targetName = module->getAttrOfType<StringAttr>("ttg.target");
    if (!targetName) {
      module.emitError() << "the LLVM lowering needs a module with ttg.target = \"cuda:<cc>\"";
      return signalPassFailure();
    }
    llvm::Expected<std::unique_ptr<TargetInfo>> maybeTarget =
        createTargetInfo(targetName.getValue());
    if (!maybeTarget) {
      module.emitError() << llvm::toString(maybeTarget.takeError());
      return signalPassFailure();
    }
    std::unique_ptr<TargetInfo> target = std::move(*maybeTarget);
    unsigned warpSize = ttg::lookupThreadsPerWarp(module);
    auto numWarps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    if (!numWarps || numWarps.getInt() < 1) {
      module.emitError() << "the LLVM lowering needs the module's ttg.num-warps";
      return signalPassFailure();
    }
    std::vector<const LoweringExtension *> extensions =
        loweringExtensions(targetName.getValue());
    lowering::Context lctx{*target, warpSize, unsigned(numWarps.getInt()),
                           options ? &*options : nullptr};
    lctx.numCTAs = ttg::lookupNumCTAs(module);
    lctx.clusterCTAs = ttg::lookupClusterCTAs(module);
    if (std::string why = target->clusterUnsupported(lctx.clusterCTAs); !why.empty()) {
      module.emitError() << "the module cannot be lowered to LLVM: " << why;
      return signalPassFailure();
    }
    auto extensionLowering = [&](Operation *op) -> const LoweringExtension * {
      for (const LoweringExtension *extension : extensions)
        if (extension->lowers(op, lctx))
          return extension;
      return nullptr;
    };
    if (failed(checkElementsPerThread(module)))
      return signalPassFailure();
    bool ok = true;
    // What an op without a lowering holds is not reported separately.
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == module)
        return WalkResult::advance();
      if (!extensionLowering(op) && !hasLowering(op, *target)) {
        op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM yet";
        ok = false;
        return WalkResult::skip();
      }
      if (failed(checkTypes(op, warpSize,
                            ttg::lookupNumWarps(op).value_or(unsigned(numWarps.getInt())),
                            lctx.numCTAs)) ||
          failed(lowering::checkCTALocality(op, lctx.numCTAs,
                                            extensionLowering(op) &&
                                                extensionLowering(op)->lowersCTATiles(op))) ||
          failed(lowering::checkWarpSpecializeLowering(op)) ||
          failed(lowering::checkAtomicLowering(op, *target)) ||
          failed(lowering::checkAsyncLowering(op, *target)) ||
          failed(checkKernelArguments(op, *target)) ||
          (isa<tt::FpToFpOp>(op) &&
           failed(target->checkFpConversion(
               op, getElementTypeOrSelf(op->getOperand(0)), getElementTypeOrSelf(op->getResult(0)),
               cast<tt::FpToFpOp>(op).getRounding() == tt::RoundingMode::RTZ))) ||
          (isa<tt::ElementwiseInlineAsmOp>(op) &&
           failed(target->checkInlineAsmConstraints(
               op, cast<tt::ElementwiseInlineAsmOp>(op).getConstraints()))) ||
          failed(lowering::checkDotLowering(op)) ||
          llvm::any_of(extensions, [&](const LoweringExtension *extension) {
            return failed(extension->check(op, lctx));
          }))
        ok = false;
      else if (isa<tt::ReduceOp, tt::ScanOp>(op) && failed(lowering::checkAxisPlan(op, warpSize)))
        ok = false;
      else if (isa<ttg::MemDescSubsliceOp>(op) && failed(lowering::subsliceStart(op)))
        ok = false;
      return WalkResult::advance();
    });
    if (!ok)
      return signalPassFailure();

    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(32); // as Triton: GPU indices are 32-bit
    lowering::TypeConverter converter(ctx, options);
    AxisInfoAnalysis axes(module);
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<tt::LoadOp>(op))
        lctx.vectorWidths[op] = lowering::accessVectorWidth(axes, load.getPtr(), load.getMask());
      else if (auto store = dyn_cast<tt::StoreOp>(op))
        lctx.vectorWidths[op] = lowering::accessVectorWidth(axes, store.getPtr(), store.getMask());
      else if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
        lctx.vectorWidths[op] = lowering::accessVectorWidth(axes, rmw.getPtr(), rmw.getMask());
      else if (isa<ttg::AsyncCopyGlobalToLocalOp>(op)) {
        FailureOr<unsigned> width = lowering::asyncCopyVectorWidth(op, axes);
        if (failed(width))
          ok = false;
        else
          lctx.vectorWidths[op] = *width;
      }
    });
    if (!ok)
      return signalPassFailure();

    declareSharedMemory(module);

    ConversionTarget llvmTarget(*ctx);
    llvmTarget.addLegalDialect<LLVM::LLVMDialect>();
    llvmTarget.addIllegalDialect<tt::TritonDialect, ttg::TritonGPUDialect, arith::ArithDialect,
                                 math::MathDialect, gpu::GPUDialect>();
    // What the target's TargetInfo and its extensions create stays.
    DialectRegistry targetDialects;
    target->getDependentDialects(targetDialects);
    for (StringRef name : targetDialects.getDialectNames())
      llvmTarget.addLegalDialect(name);
    for (const LoweringExtension *extension : extensions)
      extension->configureTarget(llvmTarget);
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, llvmTarget);
    lowering::populateFuncPatterns(converter, lctx, patterns);
    lowering::populateElementwisePatterns(converter, lctx, patterns);
    lowering::populateShapePatterns(converter, lctx, patterns);
    lowering::populateLoadStorePatterns(converter, lctx, patterns);
    lowering::populateSharedMemoryPatterns(converter, lctx, patterns);
    lowering::populateMathPatterns(converter, lctx, patterns);
    lowering::populateCastPatterns(converter, lctx, patterns);
    lowering::populateInlineAsmPatterns(converter, lctx, patterns);
    lowering::populateDebugPatterns(converter, lctx, patterns);
    lowering::populateCallPatterns(converter, lctx, patterns);
    lowering::populateConvertLayoutPatterns(converter, lctx, patterns);
    lowering::populateLocalMemoryPatterns(converter, lctx, patterns);
    lowering::populateViewPatterns(converter, lctx, patterns);
    lowering::populateGatherPatterns(converter, lctx, patterns);
    lowering::populateAtomicPatterns(converter, lctx, patterns);
    lowering::populateHistogramPatterns(converter, lctx, patterns);
    lowering::populateReducePatterns(converter, lctx, patterns);
    lowering::populateScanPatterns(converter, lctx, patterns);
    lowering::populateAsyncCopyPatterns(converter, lctx, patterns);
    lowering::populateDotPatterns(converter, lctx, patterns);
    lowering::populateWarpSpecializePatterns(converter, llvmTarget, patterns);
    for (const LoweringExtension *extension : extensions)
      extension->populatePatterns(converter, lctx, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(module, llvmTarget, std::move(patterns))))
      return signalPassFailure();

    ConversionTarget cfTarget(*ctx);
    cfTarget.addLegalDialect<LLVM::LLVMDialect>();
    for (StringRef name : targetDialects.getDialectNames())
      cfTarget.addLegalDialect(name);
    for (const LoweringExtension *extension : extensions)
      extension->configureTarget(cfTarget);
    cfTarget.addIllegalDialect<scf::SCFDialect, cf::ControlFlowDialect, arith::ArithDialect>();
    // A loop marked tt.disable_licm keeps LLVM from hoisting out of it too:
    // the SCF lowering carries this attribute to the loop's back edge.
    constexpr StringLiteral kLoopAnnotation = "llvm.loop_annotation";
    auto noLicm = LLVM::LoopAnnotationAttr::get(
        ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{}, /*unroll=*/{},
        /*unrollAndJam=*/{}, LLVM::LoopLICMAttr::get(ctx, BoolAttr::get(ctx, true), {}),
        /*distribute=*/{}, /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
        /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{}, /*parallelAccesses=*/{});
    module.walk([&](LoopLikeOpInterface loop) {
      if (loop->hasAttr("tt.disable_licm"))
        loop->setAttr(kLoopAnnotation, noLicm);
    });
    RewritePatternSet cfPatterns(ctx);
    populateSCFToControlFlowConversionPatterns(cfPatterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, cfPatterns);
    arith::populateArithToLLVMConversionPatterns(converter, cfPatterns);
    if (failed(applyPartialConversion(module, cfTarget, std::move(cfPatterns))))
      return signalPassFailure();
    // The branches took the annotation as a plain attribute; LLVM's
    // translation reads the branch's own.
    module.walk([&](Operation *op) {
      auto annotation = op->getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotation);
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        br.setLoopAnnotationAttr(annotation);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        condBr.setLoopAnnotationAttr(annotation);
      op->removeAttr(kLoopAnnotation);
    });

    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    reconcileUnrealizedCasts(casts);
  }

  std::optional<CompileOptions> options;
};

} // namespace

std::unique_ptr<Pass> kiln::createConvertTritonGPUToLLVM(const CompileOptions &options) {
  return std::make_unique<ConvertTritonGPUToLLVM>(options);
}
