//===- PTXHelpers.h - building NVVM and inline PTX --------------*- C++ -*-===//
//
// Small builders the NVIDIA TargetInfo shares: libdevice names, inline PTX
// with predicates and cache hints, packing values into PTX registers.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRITONGPUTOLLVM_PTXHELPERS_H
#define KILN_LIB_BACKEND_NVIDIA_TRITONGPUTOLLVM_PTXHELPERS_H

#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>

namespace kiln::nvidia::detail {

/// libdevice's f32 and f64 function for each math op Triton lowers through it.
const llvm::StringMap<std::pair<const char *, const char *>> &libdeviceMath();
mlir::Value intrinsic(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef name,
                      mlir::Type result, mlir::ValueRange args);
mlir::Value ptx(mlir::OpBuilder &b, mlir::Location loc, mlir::Type result, llvm::StringRef text,
                llvm::StringRef constraints, mlir::ValueRange args, bool sideEffects = false);
mlir::Value constI32(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// The declaration of function `name` in the module of `at`, added once.
mlir::LLVM::LLVMFuncOp declare(mlir::OpBuilder &b, mlir::Operation *at, llvm::StringRef name,
                               mlir::Type result, llvm::ArrayRef<mlir::Type> params);
/// The PTX register class letter and width holding `bits`-bit words.
std::pair<char, unsigned> word(unsigned bits);
/// How many words of what width a value of `type` takes.
std::pair<unsigned, unsigned> words(mlir::Type type);
llvm::SmallVector<mlir::Value> toWords(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                                       unsigned bits, unsigned n, mlir::Type regType);
struct HintText {
  std::string suffix, prologue, policyOperand;
};
HintText hintText(TargetInfo::CacheHints hints);
std::string typeName(mlir::Type t);
llvm::StringRef scopeName(TargetInfo::MemScope scope);
llvm::StringRef orderName(TargetInfo::MemOrder order);
/// One inline-asm instruction run where `pred` (i1, null: always) holds.
mlir::Value emitPredicatedAsm(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                              llvm::ArrayRef<mlir::Type> resultTypes,
                              llvm::ArrayRef<mlir::Value> inputs,
                              llvm::ArrayRef<llvm::StringRef> inputConstraints, mlir::Value pred);
/// A global load of `type` (at most 16 bytes) as Triton 3.6 writes it:
/// the registers set from `other` (or 0), then one predicated
/// `ld.global.v<n>` over them; and the matching store.
mlir::Value emitLoadGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                           mlir::Type type, TargetInfo::CacheHints hints, mlir::Value pred,
                           mlir::Value other);
void emitStoreGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Value value,
                     TargetInfo::CacheHints hints, mlir::Value pred);
/// "$first, ..., $(first+count-1)".
std::string operandList(unsigned first, unsigned count);

} // namespace kiln::nvidia::detail

#endif
