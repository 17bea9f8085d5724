//===- PTX.cpp - the ptx stage: LLVM IR through LLVM's NVPTX back end -----===//
#include "NVPTXTarget.h"

#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetOptions.h"

#include <mutex>

using namespace llvm;

namespace kiln::nvidia {

namespace {

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Triton's NVPTX options: 32-bit shared/const/local pointers (they are
/// part of the data layout) and mul.wide for 64-bit address arithmetic.
void setKilnNVPTXOptions() {
  auto registered = cl::getRegisteredOptions();
  for (const char *name : {"nvptx-short-ptr", "nvptx-mad-wide-opt"})
    if (auto *flag = static_cast<cl::opt<bool> *>(registered.lookup(name)))
      flag->setValue(true);
}

/// Only the NVPTX back end: kiln generates code for no other target here.
void initialiseNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    setKilnNVPTXOptions();
  });
}

/// LLVM options are process-wide, so each compile sets them all before the
/// target machine reads them: it puts back those the previous one set, then
/// sets kiln's (-nvptx-sched4reg on or off), then the plugins' ("-name" or
/// "-name=value"), which may override kiln's.
Error applyLLVMOptions(const CompileOptions &options) {
  static std::mutex mutex;
  static std::vector<std::string> touched;
  std::lock_guard<std::mutex> lock(mutex);
  auto registered = cl::getRegisteredOptions();
  for (const std::string &name : touched)
    if (cl::Option *option = registered.lookup(name))
      option->reset();
  if (!touched.empty())
    setKilnNVPTXOptions();
  touched.clear();
  if (auto *flag = static_cast<cl::opt<bool> *>(registered.lookup("nvptx-sched4reg")))
    flag->setValue(options.sched4reg);
  else if (options.sched4reg)
    return fail("this LLVM's NVPTX back end has no -nvptx-sched4reg");
  for (const std::string &flag : options.llvmOptions) {
    auto [name, value] = StringRef(flag).ltrim('-').split('=');
    cl::Option *option = registered.lookup(name);
    if (!option)
      return fail("unknown LLVM option '" + flag + "'");
    touched.push_back(name.str());
    if (option->addOccurrence(0, name, value))
      return fail("LLVM option '" + flag + "' does not take that value");
  }
  return Error::success();
}

const llvm::Target *nvptxTarget() {
  initialiseNVPTX();
  std::string ignored;
  return TargetRegistry::lookupTarget(Triple(kTriple), ignored);
}

/// The newest `+ptxNN` feature this LLVM knows.
int newestLLVMPtx() {
  const llvm::Target *target = nvptxTarget();
  std::unique_ptr<MCSubtargetInfo> info(
      target->createMCSubtargetInfo(Triple(kTriple), "sm_80", ""));
  int newest = 0;
  for (const SubtargetFeatureKV &feature : info->getAllProcessorFeatures()) {
    StringRef key = feature.Key;
    int version = 0;
    if (key.consume_front("ptx") && to_integer(key, version))
      newest = std::max(newest, version);
  }
  return newest;
}

} // namespace

Expected<PtxVersions> ptxVersions() {
  Expected<Ptxas> ptxas = findPtxas();
  if (!ptxas)
    return fail(toString(ptxas.takeError()) + " (the PTX version follows ptxas's CUDA release)");
  static int newest = newestLLVMPtx();
  return PtxVersions{ptxas->ptxVersion, std::min(ptxas->ptxVersion, newest)};
}

Expected<std::unique_ptr<TargetMachine>> createTargetMachine(const CompileOptions &options,
                                                             int ptxVersion) {
  int capability = options.target.capability();
  if (capability < 50)
    return fail("target " + options.target.str() + ": kiln generates code for cuda:50 and newer");
  TargetOptions settings;
  // Strict: not even llvm.fmuladd becomes an fma (SelectionDAG splits it).
  settings.AllowFPOpFusion = options.enableFpFusion ? FPOpFusion::Fast : FPOpFusion::Strict;
  settings.NoNaNsFPMath = true;
  settings.TrapUnreachable = true;
  std::string features = ptxVersion ? "+ptx" + std::to_string(ptxVersion) : "";
  std::unique_ptr<TargetMachine> machine(nvptxTarget()->createTargetMachine(
      Triple(kTriple), smArch(options.target), features, settings, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!machine)
    return fail("LLVM cannot make an NVPTX target machine for " + smArch(options.target));
  return machine;
}

Expected<std::string> generatePTX(StringRef llvmIR, const CompileOptions &options,
                                  KernelMetadata &metadata) {
  Expected<PtxVersions> versions = ptxVersions();
  if (!versions)
    return versions.takeError();
  initialiseNVPTX();
  if (Error error = applyLLVMOptions(options))
    return error;
  Expected<std::unique_ptr<TargetMachine>> machine = createTargetMachine(options, versions->llvm);
  if (!machine)
    return machine.takeError();

  LLVMContext context;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> module =
      parseIR(MemoryBufferRef(llvmIR, "<llvm-ir>"), diagnostic, context);
  if (!module)
    return fail("the LLVM IR does not parse: line " + Twine(diagnostic.getLineNo()) + ":" +
                Twine(diagnostic.getColumnNo() + 1) + ": " + diagnostic.getMessage());
  module->setTargetTriple(Triple(kTriple));
  module->setDataLayout((*machine)->createDataLayout());

  std::string ptx;
  {
    raw_string_ostream os(ptx);
    buffer_ostream stream(os);
    legacy::PassManager passes;
    if ((*machine)->addPassesToEmitFile(passes, stream, nullptr, CodeGenFileType::AssemblyFile))
      return fail("the NVPTX back end cannot emit assembly");
    passes.run(*module);
  }

  // One kernel per module: its name is what the launcher looks up.
  SmallVector<StringRef> match;
  Regex entry("\\.visible \\.entry ([A-Za-z_$][A-Za-z0-9_$]*)");
  if (!entry.match(ptx, &match))
    return fail("the LLVM IR defines no kernel (a ptx_kernel function)");
  std::string name = match[1].str();
  if (entry.match(StringRef(ptx).drop_front(match[0].data() - ptx.data() + match[0].size())))
    return fail("the LLVM IR defines more than one kernel; kiln compiles one per module");
  if (!metadata.known()) {
    // LLVM IR that kiln did not write (no metadata comment): what the PTX says.
    Expected<KernelMetadata> derived = metadataFromForeignPTX(ptx, options, std::nullopt);
    if (!derived)
      return derived.takeError();
    metadata = *derived;
  }
  metadata.name = name;
  metadata.ptxVersion = versions->ptxas;
  // LLVM may know an older PTX than ptxas; the code is valid in the newer.
  if (versions->ptxas != versions->llvm) {
    std::string version = std::to_string(versions->ptxas / 10) + "." +
                          std::to_string(versions->ptxas % 10);
    ptx = Regex("\\.version [0-9]+\\.[0-9]+").sub(".version " + version, ptx);
  }
  // Code for an older GPU, assembled for the one it runs on: the PTX names
  // that one, so that ptxas and the driver accept it there.
  if (options.ptxTarget)
    ptx = Regex("\\.target sm_[0-9]+a?").sub(".target " + smArch(*options.ptxTarget), ptx);
  return metadata.toComment("//") + ptx;
}

} // namespace kiln::nvidia
