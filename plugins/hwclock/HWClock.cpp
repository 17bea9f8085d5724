//===- HWClock.cpp - example plugin: code-generation hooks ----------------===//
//
// Shows the hooks of plugin API 1.1, as a real .so:
//
//   registerLowering  `hwclock.read` is lowered at llir by the plugin's
//                     lowering extension, to `nvvm.read.ptx.sreg.clock64`
//                     or `...globaltimer` (cuda targets only);
//   options           `hwclock.source` = clock | globaltimer picks which,
//                     so the option changes the PTX; `hwclock.unoptimized`
//                     = true compiles the kernel's PTX without ptxas's
//                     optimisations;
//   addCodegenFlags   adds `-O0` to ptxas when `hwclock.unoptimized` is
//                     true, so that ptxas moves no code across the reads;
//   registerOps       `hwclock.read()` is callable from @triton.jit kernels
//                     (`from kiln.language import hwclock`): its builder
//                     creates the plugin's own op, not TTIR.
//
// Every option value is part of the compile's cache key.
//
//===----------------------------------------------------------------------===//
#include "kiln/Base/Options.h"
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/LoweringRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "HWClockDialect.h.inc"

#define GET_OP_CLASSES
#include "HWClockOps.h.inc"

#include "HWClockDialect.cpp.inc"

#define GET_OP_CLASSES
#include "HWClockOps.cpp.inc"

void hwclock::HWClockDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "HWClockOps.cpp.inc"
      >();
}

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kSource = "hwclock.source";

/// The clock the compile's options name; null context options (kiln-opt)
/// mean the default.
llvm::StringRef source(const kiln::lowering::Context &ctx) {
  return ctx.options ? ctx.options->pluginOption(kSource, "clock") : "clock";
}

struct ReadLowering : OpConversionPattern<hwclock::ReadOp> {
  ReadLowering(kiln::lowering::TypeConverter &converter, const kiln::lowering::Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(hwclock::ReadOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type i64 = rewriter.getI64Type();
    if (source(ctx) == "globaltimer")
      rewriter.replaceOpWithNewOp<NVVM::GlobalTimerOp>(op, i64);
    else
      rewriter.replaceOpWithNewOp<NVVM::Clock64Op>(op, i64);
    return success();
  }
  const kiln::lowering::Context &ctx;
};

class Lowering final : public kiln::LoweringExtension {
public:
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }
  bool lowers(Operation *op, const kiln::lowering::Context &) const override {
    return isa<hwclock::ReadOp>(op);
  }
  LogicalResult check(Operation *op, const kiln::lowering::Context &ctx) const override {
    if (!isa<hwclock::ReadOp>(op))
      return success();
    llvm::StringRef clock = source(ctx);
    if (clock != "clock" && clock != "globaltimer")
      return op->emitError() << "plugin option hwclock.source is '" << clock
                             << "'; expected clock or globaltimer";
    return success();
  }
  void populatePatterns(kiln::lowering::TypeConverter &converter,
                        const kiln::lowering::Context &ctx,
                        RewritePatternSet &patterns) const override {
    patterns.add<ReadLowering>(converter, ctx);
  }
  void configureTarget(ConversionTarget &target) const override {
    target.addIllegalDialect<hwclock::HWClockDialect>();
    target.addLegalDialect<NVVM::NVVMDialect>();
  }
};

void registerDialects(DialectRegistry &registry) { registry.insert<hwclock::HWClockDialect>(); }

void registerOps(kiln::OpRegistry &registry) {
  kiln::KernelOp op;
  op.name = "hwclock.read";
  op.results = {{"tensor", "()", "'int64'"}};
  op.numResults = 1;
  op.signature = "() -> int64";
  op.summary = "the GPU clock the hwclock.source option names, as a scalar";
  op.pythonCall = true;
  op.build = [](kiln::KernelBuilder &kb, ValueRange, DictionaryAttr) {
    Value clock = hwclock::ReadOp::create(kb.builder(), kb.loc(), kb.builder().getI64Type());
    return FailureOr<SmallVector<Value>>(SmallVector<Value>{clock});
  };
  registry.add(std::move(op));
}

void registerLowering(kiln::LoweringRegistrar &registrar) {
  registrar.add("cuda", std::make_shared<Lowering>());
}

const kiln::PluginOption options[] = {
    {"source", "clock", "the clock hwclock.read reads: clock (%clock64) or globaltimer"},
    {"unoptimized", "false", "true: ptxas runs at -O0 and moves no code across the reads"},
};

void addCodegenFlags(const kiln::CompileOptions &compile, kiln::CodegenFlags &flags) {
  if (compile.target.kind == "cuda" && compile.pluginOption("hwclock.unoptimized") == "true")
    flags.ptxas.push_back("-O0");
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("hwclock", "1.0"),
                               &registerDialects,
                               /*registerPasses=*/nullptr,
                               /*extendPipeline=*/nullptr,
                               &registerOps,
                               &registerLowering,
                               options,
                               /*numOptions=*/2,
                               &addCodegenFlags};

} // namespace

KILN_PLUGIN(info)
