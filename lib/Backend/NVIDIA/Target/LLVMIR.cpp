//===- LLVMIR.cpp - the llir stage's code generator -----------------------===//
//
// The one translation unit of kiln that holds MLIR's LLVM IR translation
// and LLVM's linker and optimiser: the MLIR module in the LLVM and NVVM
// dialects becomes an optimised LLVM IR module for nvptx64-nvidia-cuda.
//
//===----------------------------------------------------------------------===//
#include "NVPTXTarget.h"

#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace kiln::nvidia {

namespace {

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The first op that translation cannot take: one outside the builtin,
/// LLVM and NVVM dialects (tt, ttg, arith, ... ops left unlowered).
mlir::Operation *firstUnlowered(mlir::ModuleOp module) {
  mlir::Operation *found = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (op == module.getOperation())
      return mlir::WalkResult::advance();
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "llvm" || dialect == "nvvm")
      return mlir::WalkResult::advance();
    found = op;
    return mlir::WalkResult::interrupt();
  });
  return found;
}

/// Drops argument attributes of other dialects (`tt.divisibility`, ...):
/// the lowering has used them, and translation would warn about each.
void dropForeignArgAttrs(mlir::ModuleOp module) {
  module.walk([](mlir::FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      SmallVector<mlir::NamedAttribute> attrs(func.getArgAttrs(i));
      for (mlir::NamedAttribute attr : attrs) {
        auto [dialect, rest] = attr.getName().getValue().split('.');
        if (!rest.empty() && dialect != "llvm" && dialect != "nvvm")
          func.removeArgAttr(i, attr.getName());
      }
    }
  });
}

/// The module attributes Triton's launcher needs, as the ttgir and llir
/// stages leave them on the module.
void readMetadata(mlir::ModuleOp module, const CompileOptions &options, KernelMetadata &m) {
  auto get = [&](StringRef name, int64_t fallback) -> int64_t {
    if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(name))
      return attr.getInt();
    return fallback;
  };
  // The warps the kernel launches with, warp-specialised partitions' too.
  m.numWarps = get("ttg.total-num-warps", get("ttg.num-warps", options.numWarps));
  // The launch's cluster: CTAs that each run the program alone count too.
  m.numCtas = get("ttg.cluster-ctas", get("ttg.num-ctas", options.numCtas));
  m.warpSize = get("ttg.threads-per-warp", options.warpSize);
  m.shared = std::max(get("ttg.shared", 0), options.minSharedMem.value_or(0));
  m.tmemSize = get("ttg.tensor_memory_size", 0);
  m.globalScratchSize = get("ttg.global_scratch_memory_size", 0);
  m.globalScratchAlign = get("ttg.global_scratch_memory_alignment", 1);
  m.profileScratchSize = get("ttg.profile_scratch_memory_size", 0);
  m.profileScratchAlign = get("ttg.profile_scratch_memory_alignment", 1);
  // The kernel's TMA descriptor parameters, as the lowering marked them.
  m.tensorDescs.clear();
  module.walk([&](mlir::FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto meta = func.getArgAttrOfType<mlir::DictionaryAttr>(i, "kiln.tensordesc_meta");
      if (!meta)
        continue;
      TensorDescMeta d;
      auto integer = [&](StringRef key) {
        auto v = meta.getAs<mlir::IntegerAttr>(key);
        return v ? int(v.getInt()) : 0;
      };
      d.swizzle = integer("swizzle");
      d.elemSize = integer("elem_size");
      d.elemType = integer("elem_type");
      if (auto block = meta.getAs<mlir::DenseI64ArrayAttr>("block_size"))
        d.blockSize.assign(block.asArrayRef().begin(), block.asArrayRef().end());
      if (auto fp4 = meta.getAs<mlir::BoolAttr>("fp4_padded"))
        d.fp4Padded = fp4.getValue();
      m.tensorDescs.push_back(std::move(d));
    }
  });
}

/// libdevice: TRITON_LIBDEVICE_PATH, else the CUDA install's, found beside
/// the ptxas kiln uses or under CUDA_HOME, CUDA_PATH or /usr/local/cuda.
Expected<std::string> findLibdevice() {
  if (std::optional<std::string> env = sys::Process::GetEnv("TRITON_LIBDEVICE_PATH")) {
    if (!sys::fs::exists(*env))
      return fail("TRITON_LIBDEVICE_PATH names '" + *env + "', which does not exist");
    return *env;
  }
  SmallVector<std::string> roots;
  if (Expected<Ptxas> ptxas = findPtxas())
    roots.push_back(sys::path::parent_path(sys::path::parent_path(ptxas->path)).str());
  else
    consumeError(ptxas.takeError());
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = sys::Process::GetEnv(var))
      roots.push_back(*root);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (sys::fs::exists(path))
      return path.str().str();
  }
  return fail("the kernel calls libdevice, but no libdevice.10.bc was found: set "
              "TRITON_LIBDEVICE_PATH or CUDA_HOME");
}

/// The first call of a libdevice (`__nv_*`) function in the MLIR module,
/// for a located error when libdevice is missing.
mlir::Operation *firstLibdeviceCall(mlir::ModuleOp module) {
  mlir::Operation *found = nullptr;
  module.walk([&](mlir::CallOpInterface call) {
    auto callee = dyn_cast_if_present<mlir::SymbolRefAttr>(call.getCallableForCallee());
    if (!callee || !callee.getLeafReference().getValue().starts_with("__nv_"))
      return mlir::WalkResult::advance();
    found = call;
    return mlir::WalkResult::interrupt();
  });
  return found;
}

/// Links libdevice in when the module calls one of its `__nv_*` functions,
/// taking only the functions used, and keeps them private to the module.
/// `caller` (may be null) is where a missing libdevice is reported.
Error linkLibdeviceIfUsed(llvm::Module &module, mlir::Operation *caller) {
  bool used = any_of(module.functions(), [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!used)
    return Error::success();
  Expected<std::string> path = findLibdevice();
  if (!path) {
    if (!caller)
      return path.takeError();
    auto callee = cast<mlir::SymbolRefAttr>(cast<mlir::CallOpInterface>(caller).getCallableForCallee());
    caller->emitError() << "this op calls libdevice's " << callee.getLeafReference().getValue()
                        << ", but " << toString(path.takeError());
    return fail("libdevice is needed but was not found");
  }
  SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> libdevice = parseIRFile(*path, diagnostic, module.getContext());
  if (!libdevice)
    return fail("cannot read libdevice '" + *path + "': " + diagnostic.getMessage());
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());
  if (Linker::linkModules(module, std::move(libdevice), Linker::Flags::LinkOnlyNeeded))
    return fail("cannot link libdevice '" + *path + "' into the kernel");
  for (llvm::Function &f : module.functions())
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(GlobalValue::InternalLinkage);
  return Error::success();
}

/// No contraction in the kernel's own code: `contract` flags dropped, so
/// that the optimiser cannot fuse; llvm.fmuladd stays, and the code
/// generator splits it (fp fusion Strict). libdevice, linked later, keeps
/// its explicit fma calls, as in Triton.
void forbidContraction(llvm::Function &f) {
  for (llvm::Instruction &inst : instructions(f))
    if (isa<FPMathOperator>(inst) && inst.hasAllowContract())
      inst.setHasAllowContract(false);
}

/// LLVM's default O3 pipeline, with the NVPTX target's own passes (NVVM
/// reflection for libdevice, address-space inference).
void optimise(llvm::Module &module, TargetMachine &machine) {
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  ModulePassManager passes = builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  passes.run(module, modules);
}

} // namespace

Expected<std::string> generateLLVMIR(mlir::ModuleOp module, const CompileOptions &options,
                                     KernelMetadata &metadata) {
  // Ops still in tt/ttg/arith/... mean the lowering before this step does
  // not handle them yet: say which, where.
  if (mlir::Operation *op = firstUnlowered(module)) {
    op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM IR yet";
    return fail("the module is not fully in the LLVM and NVVM dialects");
  }
  readMetadata(module, options, metadata);
  dropForeignArgAttrs(module);
  mlir::Operation *libdeviceCaller = firstLibdeviceCall(module);

  // NVVM ops without an LLVM intrinsic (wgmma, mbarrier waits, ...) become
  // inline PTX here; translation cannot take them.
  mlir::MLIRContext *context = module->getContext();
  mlir::PassManager pm(context, mlir::ModuleOp::getOperationName());
  pm.addPass(mlir::createConvertNVVMToLLVMPass());
  if (failed(pm.run(module)))
    return fail("the NVVM-to-LLVM conversion failed");

  mlir::registerBuiltinDialectTranslation(*context);
  mlir::registerLLVMDialectTranslation(*context);
  mlir::registerNVVMDialectTranslation(*context);
  LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "kiln");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");

  Expected<std::unique_ptr<TargetMachine>> machine = createTargetMachine(options, /*ptxVersion=*/0);
  if (!machine)
    return machine.takeError();
  llvmModule->setTargetTriple(Triple(kTriple));
  llvmModule->setDataLayout((*machine)->createDataLayout());
  // libdevice flushes f32 denormals to zero, as Triton's kernels do unless
  // enable_reflect_ftz is off.
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            options.enableReflectFtz ? 1 : 0);
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    if (options.maxnreg && f.getCallingConv() == CallingConv::PTX_Kernel)
      f.addFnAttr("nvvm.maxnreg", std::to_string(*options.maxnreg));
    if (!options.enableFpFusion)
      forbidContraction(f);
  }

  if (Error err = linkLibdeviceIfUsed(*llvmModule, libdeviceCaller))
    return std::move(err);
  optimise(*llvmModule, **machine);
  for (llvm::Function &f : *llvmModule)
    if (!f.isDeclaration())
      packTruncatedPhis(f);

  std::string text = metadata.toComment(";");
  raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  return text;
}

} // namespace kiln::nvidia
