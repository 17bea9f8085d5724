//===- kiln-opt.cpp - mlir-opt with kiln's dialects and passes ------------===//
//
// Registers kiln's dialects and passes beside the upstream dialects a TTIR
// pipeline meets (arith, math, scf, cf, func, ub, llvm, nvvm, rocdl, gpu)
// and every upstream pass, loads plugins (TRITON_PLUGIN_PATHS, then each
// `--plugin PATH`), then hands over to MlirOptMain. Plugins load before the
// command line is parsed so their passes can be named like any other
// (`kiln-opt --plugin libfoo.so --foo-pass`), which is what lit tests of
// plugins need. The input is read by kiln, bounded, and checked for what
// would crash MLIR's parser (kiln/Support/ParseGuards.h) before MLIR sees it.
//
//===----------------------------------------------------------------------===//
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/ParseGuards.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
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

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-opt") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
  kiln::registerKilnPasses();

  kiln::PluginManager &plugins = kiln::PluginManager::get();
  llvm::Error error = plugins.loadFromEnvironment();
  for (const std::string &path : scanPluginFlags(argc, argv))
    if (!error)
      error = plugins.load(path);
  if (error)
    return fail(llvm::toString(std::move(error)));

  mlir::DialectRegistry registry;
  kiln::registerKilnAndPluginDialects(registry);
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "kiln optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));

  if (inputFile == "-" && llvm::sys::Process::FileDescriptorIsDisplayed(0))
    llvm::errs() << "(kiln-opt reads its input from standard input now; ctrl-d ends it)\n";
  auto input = kiln::readInputFile(inputFile);
  if (!input)
    return fail(llvm::toString(input.takeError()));
  if (llvm::Error e = kiln::checkIRText((*input)->getBuffer(), (*input)->getBufferIdentifier()))
    return fail(llvm::toString(std::move(e)));
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFile, &message);
  if (!output)
    return fail(message);
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(*input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
