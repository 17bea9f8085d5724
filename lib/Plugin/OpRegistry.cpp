//===- OpRegistry.cpp - kernel-language ops from plugins ------------------===//
#include "kiln/Plugin/OpRegistry.h"

namespace kiln {

void OpRegistry::add(KernelOp op) { ops.push_back(std::move(op)); }

void OpRegistry::addValueKind(ValueKind kind) { kinds.push_back(std::move(kind)); }

const KernelOp *OpRegistry::lookup(llvm::StringRef name) const {
  for (const KernelOp &op : ops)
    if (op.name == name)
      return &op;
  return nullptr;
}

} // namespace kiln
