//===- VerifierSupport.h - shared by the tt op sources ----------*- C++ -*-===//
#ifndef KILN_LIB_DIALECT_TRITON_IR_VERIFIERSUPPORT_H
#define KILN_LIB_DIALECT_TRITON_IR_VERIFIERSUPPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace kiln::tt::detail {

/// "[4, 8]", for diagnostics about shapes.
inline std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(shape, os);
  os << "]";
  return out;
}

} // namespace kiln::tt::detail

#endif
