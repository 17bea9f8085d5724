//===- Finding.h - how kiln's fuzz targets report a broken result -*- C++ -*-===//
#ifndef KILN_FUZZ_FINDING_H
#define KILN_FUZZ_FINDING_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace kiln::fuzz {

/// Reports a broken result as a crash, so that libFuzzer keeps the input:
/// `target` names the fuzzer, `input` is what it was given.
[[noreturn]] inline void finding(llvm::StringRef target, const llvm::Twine &what,
                                 llvm::StringRef input, llvm::StringRef diagnostics) {
  llvm::errs() << target << ": " << what << "\n--- diagnostics ---\n"
               << diagnostics << "\n--- input ---\n"
               << input << "\n";
  std::abort();
}

} // namespace kiln::fuzz

#endif
