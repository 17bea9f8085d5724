//===- ParseGuards.h - input text checks before a recursive parser -*- C++ -*-===//
//
// MLIR's parser and llvm::json recurse once per level of nesting, so input
// nested deeply enough overflows the stack and kills the process. These
// checks run on the text first, with a limit far above anything real, and
// report where it is crossed. checkIRText also rejects the constructs that
// crash MLIR 22's parser outright (docs/inputs.md, "Known upstream
// parser faults").
//
//===----------------------------------------------------------------------===//
#ifndef KILN_SUPPORT_PARSEGUARDS_H
#define KILN_SUPPORT_PARSEGUARDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace kiln {

/// The deepest MLIR nesting checkIRText accepts. Triton's TTIR nests at
/// most 16 levels in kiln's corpus. MLIR 22's parser overflows an 8 MiB stack
/// at about 3,900 nested regions, and kiln's interpreter needs over 4 MiB
/// for 1,000 nested loops; at 256 every tool runs within a 2 MiB stack.
inline constexpr unsigned kMaxIRNesting = 256;

/// Checks MLIR text (`name` names it in messages) before it is parsed. The
/// nesting depth counts brackets of every kind ((), [], {}, <>, so types,
/// attributes, regions and locations alike), the operators of an affine
/// expression (which MLIR parses recursively too), and what an alias
/// (`!t = ...`, `#loc = ...`) holds where it is used. Errors read
/// "name:line:column: message". MLIR bytecode passes unchecked.
llvm::Error checkIRText(llvm::StringRef text, llvm::StringRef name,
                        unsigned limit = kMaxIRNesting);

/// The deepest JSON nesting checkJSONNesting accepts; a run spec needs 4.
inline constexpr unsigned kMaxJSONNesting = 100;

/// Checks that JSON text nests arrays and objects at most `limit` deep.
/// Errors read "line:column: message".
llvm::Error checkJSONNesting(llvm::StringRef text, unsigned limit = kMaxJSONNesting);

} // namespace kiln

#endif
