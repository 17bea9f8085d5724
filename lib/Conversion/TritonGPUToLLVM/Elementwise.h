//===- Elementwise.h - lowering an op register by register ------*- C++ -*-===//
//
// Elementwise ops take scalars or tensors; a tensor operand is lowered to
// the struct of its registers (Lowering.h). These helpers let a pattern say
// what one register becomes and handle both cases.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_CONVERSION_TRITONGPUTOLLVM_ELEMENTWISE_H
#define KILN_LIB_CONVERSION_TRITONGPUTOLLVM_ELEMENTWISE_H

#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln::lowering {

/// The registers of a converted operand: a struct's fields, or the scalar.
inline llvm::SmallVector<mlir::Value> registersOf(mlir::OpBuilder &b, mlir::Location loc,
                                                  mlir::Value converted) {
  if (llvm::isa<mlir::LLVM::LLVMStructType>(converted.getType()))
    return unpack(b, loc, converted);
  return {converted};
}

/// The converted element type of `type` (a tensor's element, or a scalar).
inline mlir::Type elementOf(const mlir::TypeConverter &converter, mlir::Type type) {
  return converter.convertType(mlir::getElementTypeOrSelf(type));
}

/// Replaces the single-result `op` by `fn` applied to each register of its
/// converted `operands` (fn gets one register of every operand, and the
/// converted result element type).
inline mlir::LogicalResult
replaceByRegister(mlir::Operation *op, mlir::ValueRange operands,
                  mlir::ConversionPatternRewriter &rewriter,
                  const mlir::TypeConverter &converter,
                  llvm::function_ref<mlir::Value(mlir::ValueRange, mlir::Type)> fn) {
  mlir::Location loc = op->getLoc();
  mlir::Type resultType = converter.convertType(op->getResult(0).getType());
  mlir::Type elem = elementOf(converter, op->getResult(0).getType());
  if (!resultType || !elem)
    return mlir::failure();
  llvm::SmallVector<llvm::SmallVector<mlir::Value>> regs;
  for (mlir::Value operand : operands)
    regs.push_back(registersOf(rewriter, loc, operand));
  bool isTensor = llvm::isa<mlir::LLVM::LLVMStructType>(resultType);
  size_t n = isTensor ? llvm::cast<mlir::LLVM::LLVMStructType>(resultType).getBody().size() : 1;
  llvm::SmallVector<mlir::Value> results;
  for (size_t r = 0; r < n; ++r) {
    llvm::SmallVector<mlir::Value> args;
    for (auto &operandRegs : regs)
      args.push_back(operandRegs[r]);
    results.push_back(fn(args, elem));
  }
  rewriter.replaceOp(op, isTensor ? pack(rewriter, loc, resultType, results) : results[0]);
  return mlir::success();
}

/// A call of external function `name` (declared at the module's start if
/// it is not yet), e.g. a device-library function.
inline mlir::Value callFunction(mlir::OpBuilder &b, mlir::Location loc, mlir::StringRef name,
                                mlir::Type result, mlir::ValueRange args) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<mlir::ModuleOp>();
  auto func = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(name);
  if (!func) {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    llvm::SmallVector<mlir::Type> params(args.getTypes());
    func = mlir::LLVM::LLVMFuncOp::create(b, loc, name,
                                          mlir::LLVM::LLVMFunctionType::get(result, params));
  }
  return mlir::LLVM::CallOp::create(b, loc, func, args).getResult();
}

/// Whether the tt.fp_to_fp `op` converts between types and with a rounding
/// mode that the lowering handles.
bool canLowerFpToFp(mlir::Operation *op);

void populateMathPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);
void populateCastPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);
void populateInlineAsmPatterns(TypeConverter &converter, const Context &ctx,
                               mlir::RewritePatternSet &patterns);
void populateDebugPatterns(TypeConverter &converter, const Context &ctx,
                           mlir::RewritePatternSet &patterns);
void populateCallPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);

} // namespace kiln::lowering

#endif
