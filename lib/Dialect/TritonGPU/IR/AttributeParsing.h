//===- AttributeParsing.h - shared by the ttg attribute files ---*- C++ -*-===//
#ifndef KILN_LIB_DIALECT_TRITONGPU_IR_ATTRIBUTEPARSING_H
#define KILN_LIB_DIALECT_TRITONGPU_IR_ATTRIBUTEPARSING_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"

namespace kiln::ttg::parsing {

// Layout parameters are bounded so that products and shifts of them fit in
// 32 bits: a power of two up to 2^30 per entry, at most 30 bases per input.
constexpr int64_t kMaxEntry = 1 << 30;
constexpr size_t kMaxBases = 30;

/// `<{...}>`: the dictionary of an encoding, and where it starts.
mlir::ParseResult parseEncodingDict(mlir::AsmParser &parser, mlir::DictionaryAttr &dict,
                                    llvm::SMLoc &loc);
mlir::ParseResult readUnsigned(mlir::AsmParser &parser, llvm::SMLoc loc, llvm::StringRef key,
                               mlir::Attribute value, unsigned &out);
mlir::ParseResult readUnsignedArray(mlir::AsmParser &parser, llvm::SMLoc loc,
                                    llvm::StringRef key, mlir::Attribute value,
                                    llvm::SmallVector<unsigned> &out);
mlir::ParseResult readBases(mlir::AsmParser &parser, llvm::SMLoc loc, llvm::StringRef key,
                            mlir::Attribute value, unsigned &rank,
                            llvm::SmallVector<int32_t> &out);
/// A key's reader succeeded: it knows the key.
mlir::FailureOr<bool> known(mlir::ParseResult read);
/// Reads each entry of `dict` with `read` (false: an unknown key), then
/// checks that every `required` key was there.
mlir::ParseResult readKeys(mlir::AsmParser &parser, llvm::SMLoc loc, llvm::StringRef mnemonic,
                           mlir::DictionaryAttr dict, llvm::ArrayRef<llvm::StringRef> required,
                           llvm::function_ref<mlir::FailureOr<bool>(llvm::StringRef,
                                                                    mlir::Attribute)>
                               read);
void printList(mlir::AsmPrinter &printer, llvm::ArrayRef<unsigned> values);
void printBases(mlir::AsmPrinter &printer, llvm::ArrayRef<int32_t> flat, unsigned rank);
void printCGALayout(mlir::AsmPrinter &printer, llvm::ArrayRef<int32_t> flat, unsigned rank);
mlir::LogicalResult verifyPowersOfTwo(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                                      llvm::StringRef key, llvm::ArrayRef<unsigned> values);
mlir::LogicalResult verifyOrder(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                                llvm::ArrayRef<unsigned> order);
mlir::LogicalResult verifyBases(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                                llvm::StringRef what, llvm::ArrayRef<int32_t> flat,
                                unsigned rank);
mlir::LogicalResult verifyCGA(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                              llvm::ArrayRef<int32_t> flat, unsigned rank);
/// The product of `values`, saturating at the largest unsigned.
unsigned saturatingProduct(llvm::ArrayRef<unsigned> values);

} // namespace kiln::ttg::parsing

#endif
