//===- Passes.h - the NVIDIA back end's ttgir passes ------------*- C++ -*-===//
#ifndef KILN_BACKEND_NVIDIA_TRANSFORMS_PASSES_H
#define KILN_BACKEND_NVIDIA_TRANSFORMS_PASSES_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::nvidia {

#define GEN_PASS_DECL
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"

} // namespace kiln::nvidia

#endif
