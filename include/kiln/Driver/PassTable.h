//===- PassTable.h - the core passes of every back end, as a table -*- C++ -*-===//
//
// The one source of the pass list: the ids and stages come from the back
// ends' stage lists, the flags and summaries from the passes themselves
// (their Passes.td). `kiln passes` prints it; docs/passes.md holds its
// output and test/Pipeline/pass-table.test checks that the two agree.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DRIVER_PASSTABLE_H
#define KILN_DRIVER_PASSTABLE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// A markdown table of every core pass entry of every back end, for the
/// targets each back end documents: id, stage, `kiln-opt` flag, summary,
/// and the targets whose pipelines hold it.
llvm::Error writePassTable(llvm::raw_ostream &os);

} // namespace kiln

#endif
