//===- CrashPlugin.cpp - a plugin that dies in every way a process can ----===//
//
// For the isolated-compile tests. Each way of dying is placed only for the
// kernel named after it, so one plugin serves every test:
//   @segv        crash.segv       writes through a null pointer
//   @abort       crash.abort      calls abort()
//   @throw       crash.throw      throws a C++ exception nobody catches
//   @exit        crash.exit       calls exit(0) in the middle of the compile
//   @segv_func   crash.segv_func  segfaults in a pass on each tt.func
//   @segv_stage  the ttgir stage, overridden, segfaults
// Its dialect's type parser segfaults on `!crash.boom`, and kiln-opt knows
// its pass `crash-segv`.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Pass/Pass.h"

#include <cstdlib>
#include <stdexcept>

using namespace mlir;

namespace {

enum class Death { Segv, Abort, Throw, Exit };

[[gnu::noinline]] void die(Death death) {
  switch (death) {
  case Death::Segv: {
    volatile int *volatile target = nullptr; // volatile: the store stays
    *target = 1;
    break;
  }
  case Death::Abort:
    std::abort();
  case Death::Throw:
    throw std::runtime_error("thrown by a crash plugin pass");
  case Death::Exit:
    std::exit(0);
  }
}

template <typename Op>
struct DiePass : public PassWrapper<DiePass<Op>, OperationPass<Op>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DiePass)
  explicit DiePass(Death death, llvm::StringRef argument = "")
      : death(death), argument(argument) {}
  llvm::StringRef getArgument() const final { return argument; }
  void runOnOperation() override { die(death); }
  Death death;
  llvm::StringRef argument;
};

class CrashDialect : public Dialect {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashDialect)
  explicit CrashDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context, TypeID::get<CrashDialect>()) {}
  static StringRef getDialectNamespace() { return "crash"; }
  Type parseType(DialectAsmParser &) const override {
    die(Death::Segv);
    return {};
  }
  void printType(Type, DialectAsmPrinter &) const override {}
};

void registerDialects(DialectRegistry &registry) { registry.insert<CrashDialect>(); }

void registerPasses(kiln::PassRegistrar &registrar) {
  registrar.add([] { return std::make_unique<DiePass<ModuleOp>>(Death::Segv, "crash-segv"); });
}

void extendPipeline(kiln::PipelineEditor &editor) {
  auto forKernel = [](const char *name) {
    return kiln::EditScope::forKernels(kiln::KernelPredicate::nameMatches(name));
  };
  auto place = [&](const char *name, Death death) {
    editor.insertAfter(
        "ttir.inline", std::string("crash.") + name,
        [death](const kiln::CompileOptions &) { return std::make_unique<DiePass<ModuleOp>>(death); },
        forKernel(name));
  };
  place("segv", Death::Segv);
  place("abort", Death::Abort);
  place("throw", Death::Throw);
  place("exit", Death::Exit);
  editor.insertAfter(
      "ttir.inline", "crash.segv_func",
      [](const kiln::CompileOptions &) {
        return std::make_unique<DiePass<kiln::tt::FuncOp>>(Death::Segv);
      },
      forKernel("segv_func"));
  editor.overrideStage(
      "ttgir",
      [](kiln::Artifact &, const kiln::CompileOptions &) {
        die(Death::Segv);
        return failure();
      },
      forKernel("segv_stage"));
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("crash", "0.1"), &registerDialects,
                               &registerPasses, &extendPipeline, /*registerOps=*/nullptr};

} // namespace

KILN_PLUGIN(info)
