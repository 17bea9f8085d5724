//===- InlineAsm.h - how tt.elementwise_inline_asm packs operands -*- C++ -*-===//
//
// Shared by the op's verifier and its lowering, so that the operands the
// verifier checks the constraints against are those the lowering makes.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITON_IR_INLINEASM_H
#define KILN_DIALECT_TRITON_IR_INLINEASM_H

#include "mlir/IR/Types.h"

namespace kiln::tt {
/// How many of an asm instance's `packed` elements of type `elem` share one
/// asm operand: a 32-bit register holds several narrower ones.
unsigned inlineAsmElementsPerOperand(mlir::Type elem, unsigned packed);
} // namespace kiln::tt

#endif
