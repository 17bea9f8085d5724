//===- Registration.h - what kiln's tools register --------------*- C++ -*-===//
#ifndef KILN_REGISTRATION_H
#define KILN_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace kiln {

/// kiln's dialects and the upstream ones a TTIR pipeline meets (arith, math,
/// scf, cf, func, ub, llvm, nvvm, rocdl, gpu).
void registerKilnDialects(mlir::DialectRegistry &registry);

/// kiln's dialects and those of every plugin loaded so far: what a context
/// that parses or builds kernels needs.
void registerKilnAndPluginDialects(mlir::DialectRegistry &registry);

/// kiln's own passes and every upstream MLIR pass: what textual pipelines
/// (kiln-opt) can name. The plugin loader registers them before the first
/// plugin, so every tool checks a plugin's pass names against this one set.
void registerKilnPasses();

} // namespace kiln

#endif
