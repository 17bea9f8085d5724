//===- Registration.cpp - the dialects kiln compiles with -----------------===//
//
// The only file of the library that includes the heavy LLVM, NVVM and ROCDL
// dialect headers.
//
//===----------------------------------------------------------------------===//
#include "kiln/Registration.h"

#include "kiln/Backend/Registry.h"
#include "kiln/Frontend/Passes.h"
#include "kiln/Plugin/PluginManager.h"

#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/Triton/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/InitAllPasses.h"

namespace kiln {

void registerKilnDialects(mlir::DialectRegistry &registry) {
  registry.insert<tt::TritonDialect, ttg::TritonGPUDialect, ttng::TritonNvidiaGPUDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::ub::UBDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect,
                  mlir::gpu::GPUDialect>();
  // A context's lowering asks the back ends' registries.
  registerBackends();
}

void registerKilnAndPluginDialects(mlir::DialectRegistry &registry) {
  registerKilnDialects(registry);
  PluginManager::get().appendDialects(registry);
}

void registerKilnPasses() {
  static bool registered = [] {
    mlir::registerAllPasses();
    tt::registerTritonPasses();
    registerFrontendPasses();
    ttg::registerTritonGPUPasses();
    registerTritonGPUToLLVMPasses();
    registerBackends();
    return true;
  }();
  (void)registered;
}

} // namespace kiln
