//===- kiln-opt.cpp - mlir-opt with kiln's dialects and passes ------------===//
//
// Registers kiln's dialects and passes beside the upstream dialects a TTIR
// pipeline meets (arith, math, scf, cf, func, ub, llvm, nvvm, rocdl, gpu)
// and every upstream pass, loads plugins (TRITON_PLUGIN_PATHS, then each
// `--plugin PATH`), then hands over to MlirOptMain. Plugins load before the
// command line is parsed so their passes can be named like any other
// (`kiln-opt --plugin libfoo.so --foo-pass`), which is what lit tests of
// plugins need. The input is read by kiln, bounded, and checked for what
// would crash MLIR's parser (kiln/Support/ParseGuards.h) before MLIR sees it,
// in either mode below.
//
// With --isolate (or KILN_ISOLATE=1) it runs in a child process, as `kiln
// compile` does by default, and reports a crash there in one line naming
// the signal and the pass that ran. In process is its default: kiln-opt is
// mlir-opt, the tool for debugging passes, where a crash should keep LLVM's
// stack dump and MLIR's crash reproducers.
//
//===----------------------------------------------------------------------===//
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/Isolation.h"
#include "kiln/Support/ParseGuards.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <string>
#include <vector>

// Declared so the command line accepts and documents it; its values are read
// by the scan in main, before parsing.
static llvm::cl::list<std::string>
    pluginFlags("plugin", llvm::cl::desc("Load a kiln plugin (after TRITON_PLUGIN_PATHS)"),
                llvm::cl::value_desc("path"));
static llvm::cl::opt<bool>
    isolateFlag("isolate", llvm::cl::desc("Run in a child process and report a crash there "
                                          "as an error (also KILN_ISOLATE=1)"));
static llvm::cl::opt<bool>
    noIsolateFlag("no-isolate",
                  llvm::cl::desc("Run in this process (the default; also KILN_ISOLATE=0)"));

/// The values of every `--plugin PATH` / `--plugin=PATH` in argv.
static std::vector<std::string> scanPluginFlags(int argc, char **argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--") // everything after is positional
      break;
    if (!arg.consume_front("--") && !arg.consume_front("-"))
      continue;
    if (arg == "plugin" && i + 1 < argc)
      paths.push_back(argv[++i]);
    else if (arg.consume_front("plugin="))
      paths.push_back(arg.str());
  }
  return paths;
}

/// Records the pass each thread runs, named with the plugin that registered it.
struct PassProgress : public mlir::PassInstrumentation {
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    llvm::StringRef argument = pass->getArgument();
    if (argument.empty()) // the pass manager's own adaptors
      return;
    std::string step = "pass '" + argument.str() + "'";
    for (const kiln::LoadedPlugin &plugin : kiln::PluginManager::get().plugins())
      if (llvm::is_contained(plugin.passes, argument))
        step += " registered by plugin '" + plugin.name + "' (" + plugin.path + ")";
    kiln::progress::beginStep(step);
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override { end(pass); }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *) override { end(pass); }
  void end(mlir::Pass *pass) {
    if (!pass->getArgument().empty())
      kiln::progress::endStep();
  }
};

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-opt") << message << "\n";
  return 1;
}

/// What MlirOptMain(argc, argv, ...) does once the command line is parsed,
/// but with the input read and checked by kiln; the exit status.
static int runOpt(llvm::StringRef input, llvm::StringRef output,
                  mlir::DialectRegistry &registry, const mlir::MlirOptMainConfig &config) {
  if (input == "-" && llvm::sys::Process::FileDescriptorIsDisplayed(0))
    llvm::errs() << "(kiln-opt reads its input from standard input now; ctrl-d ends it)\n";
  auto file = kiln::readInputFile(input);
  if (!file)
    return fail(llvm::toString(file.takeError()));
  if (llvm::Error e = kiln::checkIRText((*file)->getBuffer(), (*file)->getBufferIdentifier()))
    return fail(llvm::toString(std::move(e)));
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(output, &message);
  if (!out)
    return fail(message);
  kiln::progress::setPhase("while parsing '" + input + "'");
  if (mlir::failed(mlir::MlirOptMain(out->os(), std::move(*file), registry, config)))
    return 1;
  out->keep();
  return 0;
}

/// runOpt with the progress instrumentation added to every pass manager.
static int runOptInChild(llvm::StringRef input, llvm::StringRef output,
                         mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  mlir::MlirOptMainConfig fromCommandLine = config;
  std::string phase = "while running passes on '" + input.str() + "'";
  config.setPassPipelineSetupFn([fromCommandLine, phase](mlir::PassManager &pm) {
    if (mlir::failed(fromCommandLine.setupPassPipeline(pm)))
      return mlir::failure();
    pm.addInstrumentation(std::make_unique<PassProgress>());
    kiln::progress::setPhase(phase);
    return mlir::success();
  });
  return runOpt(input, output, registry, config);
}

int main(int argc, char **argv) {
  kiln::registerKilnPasses(); // with every upstream pass

  kiln::PluginManager &plugins = kiln::PluginManager::get();
  plugins.setWarningHandler([](llvm::StringRef message) {
    llvm::WithColor::warning(llvm::errs(), "kiln-opt") << message << "\n";
  });
  llvm::Error error = plugins.loadFromEnvironment();
  for (const std::string &path : scanPluginFlags(argc, argv))
    if (!error)
      error = plugins.load(path);
  if (error)
    return fail(llvm::toString(std::move(error)));

  mlir::DialectRegistry registry;
  kiln::registerKilnAndPluginDialects(registry);
  auto [input, output] =
      mlir::registerAndParseCLIOptions(argc, argv, "kiln optimizer driver\n", registry);
  llvm::Expected<bool> isolated =
      kiln::wantsIsolation(isolateFlag, noIsolateFlag, /*toolDefault=*/false);
  if (!isolated)
    return fail(llvm::toString(isolated.takeError()));
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // Listings print and exit: nothing to isolate, no input to read.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, input, output, registry));
  if (!*isolated) {
    llvm::InitLLVM init(argc, argv); // LLVM's stack dump on a crash, as mlir-opt
    return runOpt(input, output, registry, config);
  }
  llvm::Expected<int> status = kiln::runIsolatedStatus(
      "isolated run", [&] { return runOptInChild(input, output, registry); });
  if (!status)
    return fail(llvm::toString(status.takeError()));
  return *status;
}
