//===- PackTruncatedPhis.cpp - loop-carried values in their narrow type ---===//
//
// InstCombine rewrites phi(fptrunc a, fptrunc b) as fptrunc(phi(a, b)): one
// conversion instead of two. On a GPU that is the wrong trade when the
// narrow values are packed pairs feeding a tensor-core operand: a loop then
// carries each f16/bf16 operand element in an f32 register of its own,
// twice the registers of the packed pairs. An attention loop that carries
// P (computed in one iteration, multiplied in the next) across the back
// edge needs those 32 registers more per thread while its P V product is
// in flight, and ptxas then waits for that product to retire before the
// softmax's exponentials rather than after them.
//
// This undoes the fold where it can be undone exactly: a vector of f16 or
// bf16 built element by element from fptruncs of phis of one loop header
// (the values a back edge carries), each used only there, becomes a phi of
// the vector, converted in each predecessor. Only there: for the phis
// after a loop (an accumulator stored in f16 by the epilogue), converting
// in the predecessors would convert in every iteration of the loop, and
// keep both forms live across it. No LLVM pass that runs after this one
// folds it back.
//
//===----------------------------------------------------------------------===//
#include "NVPTXTarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace kiln::nvidia {

namespace {

/// A vector built from one phi per element: the insertelement chain (first
/// to last), the phi of each element and its fptrunc (null for a phi of
/// the narrow type itself).
struct PackedPhis {
  SmallVector<InsertElementInst *> chain;
  SmallVector<FPTruncInst *> truncs;
  SmallVector<PHINode *> phis;
};

/// The pattern ending at `last`, if it is one: a chain from poison/undef
/// setting each element once, every link but the last used only by the
/// next, each element an fptrunc used only by its link, of an f32 phi used
/// only by the fptrunc, or a phi of the element type used only by its link
/// (a value the loop carries already narrow: the phi is not packed, and
/// the predecessors pack it), all phis in one block.
std::optional<PackedPhis> match(InsertElementInst *last, const DominatorTree &dom) {
  auto *type = dyn_cast<FixedVectorType>(last->getType());
  if (!type || !(type->getElementType()->isHalfTy() || type->getElementType()->isBFloatTy()))
    return std::nullopt;
  unsigned n = type->getNumElements();
  PackedPhis found;
  found.truncs.assign(n, nullptr);
  found.phis.assign(n, nullptr);
  Value *link = last;
  while (auto *insert = dyn_cast<InsertElementInst>(link)) {
    if (insert != last && !insert->hasOneUse())
      return std::nullopt;
    auto *index = dyn_cast<ConstantInt>(insert->getOperand(2));
    if (!index || index->getZExtValue() >= n || found.phis[index->getZExtValue()])
      return std::nullopt;
    auto *trunc = dyn_cast<FPTruncInst>(insert->getOperand(1));
    if (trunc && !trunc->hasOneUse())
      return std::nullopt;
    auto *phi = dyn_cast<PHINode>(trunc ? trunc->getOperand(0) : insert->getOperand(1));
    if (!phi || !phi->hasOneUse() ||
        phi->getType() != (trunc ? Type::getFloatTy(phi->getContext()) : type->getElementType()))
      return std::nullopt;
    found.truncs[index->getZExtValue()] = trunc;
    found.phis[index->getZExtValue()] = phi;
    found.chain.insert(found.chain.begin(), insert);
    link = insert->getOperand(0);
  }
  // Each element set once (n links, distinct indices), by phis of one block.
  if (!isa<PoisonValue, UndefValue>(link) || found.chain.size() != n)
    return std::nullopt;
  BasicBlock *block = found.phis.front()->getParent();
  for (PHINode *phi : found.phis)
    if (phi->getParent() != block)
      return std::nullopt;
  // A loop header: the block dominates a predecessor (a back edge's).
  if (llvm::none_of(predecessors(block), [&](BasicBlock *p) { return dom.dominates(block, p); }))
    return std::nullopt;
  return found;
}

void rewrite(PackedPhis &found) {
  InsertElementInst *last = found.chain.back();
  BasicBlock *block = found.phis.front()->getParent();
  PHINode *first = found.phis.front();
  IRBuilder<> front(block, block->begin());
  PHINode *packed = front.CreatePHI(last->getType(), first->getNumIncomingValues(), "packed");
  DenseMap<BasicBlock *, Value *> built;
  for (BasicBlock *pred : first->blocks()) {
    Value *&value = built[pred];
    if (!value) {
      IRBuilder<> at(pred->getTerminator());
      value = PoisonValue::get(last->getType());
      for (auto [i, phi] : llvm::enumerate(found.phis)) {
        Value *element = phi->getIncomingValueForBlock(pred);
        if (found.truncs[i])
          element = at.CreateFPTrunc(element, last->getType()->getScalarType());
        value = at.CreateInsertElement(value, element, i);
      }
    }
    packed->addIncoming(value, pred);
  }
  last->replaceAllUsesWith(packed);
  for (InsertElementInst *insert : llvm::reverse(found.chain))
    insert->eraseFromParent();
  for (FPTruncInst *trunc : found.truncs)
    if (trunc)
      trunc->eraseFromParent();
  for (PHINode *phi : found.phis)
    phi->eraseFromParent();
}

/// The field `index` of `aggregate` as it reaches `at`'s block: read
/// through the insertvalue chain or the constant that built it, else
/// extracted before `at`.
Value *fieldOf(Value *aggregate, unsigned index, Instruction *at) {
  for (Value *v = aggregate;;) {
    if (auto *insert = dyn_cast<InsertValueInst>(v)) {
      if (insert->getIndices().size() == 1 && insert->getIndices()[0] == index)
        return insert->getInsertedValueOperand();
      if (insert->getIndices().size() != 1)
        break;
      v = insert->getAggregateOperand();
      continue;
    }
    if (auto *constant = dyn_cast<Constant>(v))
      if (Constant *field = constant->getAggregateElement(index))
        return field;
    break;
  }
  return IRBuilder<>(at).CreateExtractValue(aggregate, index);
}

/// A loop-carried tensor reaches LLVM as a phi of a struct, one field per
/// register. LLVM splits such phis when InstCombine can see through them,
/// not always (a bf16 tile carried from one tile of a loop to the next
/// stayed whole), and the scalar phis are what the packing below and
/// ptxas work on: a struct phi read only field by field becomes a phi per
/// field, read through the chains that built each incoming value.
unsigned splitStructPhis(Function &f) {
  SmallVector<PHINode *> phis;
  for (BasicBlock &block : f)
    for (PHINode &phi : block.phis())
      if (auto *type = dyn_cast<StructType>(phi.getType());
          type && llvm::all_of(phi.users(), [](User *u) {
            auto *extract = dyn_cast<ExtractValueInst>(u);
            return extract && extract->getIndices().size() == 1;
          }))
        phis.push_back(&phi);
  for (PHINode *phi : phis) {
    auto *type = cast<StructType>(phi->getType());
    SmallVector<PHINode *> fields;
    IRBuilder<> front(phi);
    for (unsigned i = 0; i < type->getNumElements(); ++i) {
      PHINode *field = front.CreatePHI(type->getElementType(i), phi->getNumIncomingValues(),
                                       phi->getName() + ".f" + Twine(i));
      for (unsigned in = 0; in < phi->getNumIncomingValues(); ++in)
        field->addIncoming(fieldOf(phi->getIncomingValue(in), i,
                                   phi->getIncomingBlock(in)->getTerminator()),
                           phi->getIncomingBlock(in));
      fields.push_back(field);
    }
    for (User *u : llvm::make_early_inc_range(phi->users())) {
      auto *extract = cast<ExtractValueInst>(u);
      extract->replaceAllUsesWith(fields[extract->getIndices()[0]]);
      extract->eraseFromParent();
    }
    // The chains that built the struct values may now be dead.
    SmallVector<WeakTrackingVH> built(phi->incoming_values());
    phi->eraseFromParent();
    for (PHINode *field : fields)
      if (field->use_empty())
        field->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(built);
  }
  return phis.size();
}

} // namespace

unsigned packTruncatedPhis(Function &f) {
  splitStructPhis(f);
  // A rewrite leaves new chains in the predecessors, which may end in phis
  // of their own (a loop's entry values): repeat until none is left. Each
  // round removes scalar phis and adds only vector ones, so it ends.
  unsigned rewritten = 0;
  DominatorTree dom(f); // the rewrites add instructions, not blocks
  for (;;) {
    SmallVector<PackedPhis> matches;
    for (Instruction &inst : instructions(f)) {
      auto *insert = dyn_cast<InsertElementInst>(&inst);
      // The chain's last link: not itself extended by another insertelement.
      if (!insert ||
          llvm::any_of(insert->users(), [](User *u) { return isa<InsertElementInst>(u); }))
        continue;
      if (std::optional<PackedPhis> found = match(insert, dom))
        matches.push_back(std::move(*found));
    }
    if (matches.empty())
      return rewritten;
    for (PackedPhis &found : matches)
      rewrite(found);
    rewritten += matches.size();
  }
}

} // namespace kiln::nvidia
