//===- ForwardStructFields.cpp - the llir-forward-struct-fields pass -------===//
//
// A tensor travels between lowered ops as a struct of a thread's registers:
// the producer inserts each register into the struct, every user extracts
// them again. Each extract of a field its insertvalue chain set reads the
// inserted value instead; the chains that lose their last user go. A chain
// is walked until its fields are all found or it meets a chain already
// tabled, so the pass is linear in the registers of the usual pack and
// unpack, where LLVM's folding of the same chains is quadratic.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln {
#define GEN_PASS_DEF_FORWARDSTRUCTFIELDS
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

struct ForwardStructFields : kiln::impl::ForwardStructFieldsBase<ForwardStructFields> {
  void runOnOperation() override {
    // The fields an insertvalue chain sets, by the struct value at its top;
    // null where the chain sets none (the field comes from its base).
    DenseMap<Value, SmallVector<Value>> fields;
    auto fieldsOf = [&](Value top) -> ArrayRef<Value> {
      auto it = fields.find(top);
      if (it != fields.end())
        return it->second;
      auto type = dyn_cast<LLVM::LLVMStructType>(top.getType());
      SmallVector<Value> set(type ? type.getBody().size() : 0);
      size_t unset = set.size();
      for (auto insert = top.getDefiningOp<LLVM::InsertValueOp>(); insert && unset;
           insert = insert.getContainer().getDefiningOp<LLVM::InsertValueOp>()) {
        ArrayRef<int64_t> position = insert.getPosition();
        // Nested positions reach into a member struct: the walk stops.
        if (position.size() != 1 || position[0] < 0 || position[0] >= int64_t(set.size()))
          break;
        if (!set[position[0]]) {
          set[position[0]] = insert.getValue();
          --unset;
        }
        // The rest of the chain is a table already: take its fields.
        if (auto known = fields.find(insert.getContainer()); known != fields.end()) {
          for (auto [field, value] : llvm::zip(set, known->second))
            if (!field)
              field = value;
          break;
        }
      }
      return fields.try_emplace(top, std::move(set)).first->second;
    };

    SmallVector<LLVM::ExtractValueOp> extracts;
    SmallVector<LLVM::InsertValueOp> inserts;
    getOperation().walk([&](Operation *op) {
      if (auto extract = dyn_cast<LLVM::ExtractValueOp>(op))
        extracts.push_back(extract);
      else if (auto insert = dyn_cast<LLVM::InsertValueOp>(op))
        inserts.push_back(insert);
    });
    // A table may hold an extract this loop has forwarded already (blocks
    // need not come in dominance order): follow it to what replaced it.
    DenseMap<Value, Value> forwarded;
    auto resolve = [&](Value v) {
      for (auto it = forwarded.find(v); it != forwarded.end(); it = forwarded.find(v))
        v = it->second;
      return v;
    };
    SmallVector<LLVM::ExtractValueOp> done;
    for (LLVM::ExtractValueOp extract : extracts) {
      ArrayRef<int64_t> position = extract.getPosition();
      if (position.size() != 1 || !extract.getContainer().getDefiningOp<LLVM::InsertValueOp>())
        continue;
      ArrayRef<Value> set = fieldsOf(extract.getContainer());
      if (position[0] < 0 || position[0] >= int64_t(set.size()) || !set[position[0]])
        continue;
      Value value = resolve(set[position[0]]);
      forwarded[extract.getResult()] = value;
      extract.getResult().replaceAllUsesWith(value);
      done.push_back(extract);
    }
    for (LLVM::ExtractValueOp extract : done)
      extract.erase();
    // Last first: a chain's top goes before the inserts it is built on.
    for (LLVM::InsertValueOp insert : llvm::reverse(inserts))
      if (insert->use_empty())
        insert.erase();
  }
};

} // namespace
