//===- AccessWidth.h - how wide a load or store may be ----------*- C++ -*-===//
#ifndef KILN_ANALYSIS_ACCESSWIDTH_H
#define KILN_ANALYSIS_ACCESSWIDTH_H

#include "mlir/IR/Value.h"

namespace kiln {
class AxisInfoAnalysis;
} // namespace kiln

namespace kiln::lowering {

/// The widest vector access (in elements, at most 16 bytes) that a
/// tt.load or tt.store through `ptr` with `mask` may use for consecutive
/// registers: what the layout's register contiguity, the pointers'
/// contiguity and alignment and the mask's constancy (from `axes`) all
/// allow. 1 for a scalar access. Must run before the IR is converted.
/// `ptrHint` is a contiguity of the pointers that the producer of the IR
/// vouches for (ttg.async_copy_global_to_local's `contiguity`), used where
/// it exceeds what the analysis proves.
unsigned accessVectorWidth(const AxisInfoAnalysis &axes, mlir::Value ptr, mlir::Value mask,
                           unsigned ptrHint = 1);

} // namespace kiln::lowering

#endif
