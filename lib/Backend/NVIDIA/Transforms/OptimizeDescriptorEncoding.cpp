//===- OptimizeDescriptorEncoding.cpp - nvmma_shared for descriptors ------===//
//
// Every descriptor value is retyped in place (block arguments and op
// results alike), so the ops that pass descriptors on (scf.for, scf.if)
// stay consistent; tt.func signatures are rebuilt from their entry blocks.
// In a program of several CTAs a descriptor's block is split over them as
// the tensors copied through it are, so that each CTA copies its own tile
// (copies that split otherwise convert their tensors).
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_OPTIMIZEDESCRIPTORENCODING
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// Descriptor values that must share one type: what scf ops carry through
/// their regions, a select's operands and result, calls and callees.
struct DescriptorClasses {
  DenseMap<Value, Value> parent;
  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end() || it->second == v)
      return v;
    return it->second = find(it->second);
  }
  void join(Value a, Value b) {
    if (!isa<tt::TensorDescType>(a.getType()) || !isa<tt::TensorDescType>(b.getType()))
      return;
    parent.try_emplace(a, a);
    parent.try_emplace(b, b);
    parent[find(a)] = find(b);
  }
  void joinAll(ValueRange a, ValueRange b) {
    for (auto [x, y] : llvm::zip(a, b))
      join(x, y);
  }
};

DescriptorClasses classesOf(ModuleOp module) {
  DescriptorClasses classes;
  module.walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      classes.joinAll(loop.getInitArgs(), loop.getRegionIterArgs());
      classes.joinAll(loop.getResults(), loop.getRegionIterArgs());
      classes.joinAll(loop.getBody()->getTerminator()->getOperands(), loop.getRegionIterArgs());
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region &region : branch->getRegions())
        if (!region.empty())
          classes.joinAll(region.front().getTerminator()->getOperands(), branch.getResults());
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      classes.joinAll(loop.getInits(), loop.getBeforeArguments());
      classes.joinAll(loop.getYieldOp().getOperands(), loop.getBeforeArguments());
      classes.joinAll(loop.getConditionOp().getArgs(), loop.getAfterArguments());
      classes.joinAll(loop.getConditionOp().getArgs(), loop.getResults());
    } else if (auto call = dyn_cast<tt::CallOp>(op)) {
      if (auto callee = module.lookupSymbol<tt::FuncOp>(call.getCallee());
          callee && !callee.isExternal()) {
        classes.joinAll(call.getOperands(), callee.getArguments());
        callee.walk([&](tt::ReturnOp ret) { classes.joinAll(ret.getOperands(), call.getResults()); });
      }
    } else if (isa<arith::SelectOp>(op)) {
      classes.joinAll(op->getOperands().drop_front(), {op->getResult(0), op->getResult(0)});
    }
  });
  return classes;
}

/// The flattened CGA layout a descriptor's block needs so that the tensor
/// a copy moves (`tensor`, of the block's rank or a rank-reducing one) is
/// split over the CTAs as its block.
SmallVector<int32_t> blockCGA(RankedTensorType tensor, unsigned blockRank) {
  auto enc = dyn_cast_or_null<ttg::LayoutEncodingInterface>(tensor.getEncoding());
  SmallVector<int32_t> flat;
  if (!enc)
    return flat;
  for (const SmallVector<int32_t> &basis : enc.getCGABases())
    flat.append(basis.begin(), basis.end());
  return ttg::rerankBases(flat, tensor.getRank(), blockRank);
}

/// The tensor a descriptor op copies, or null for other ops.
RankedTensorType copiedTensor(Operation *op) {
  if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
    return load.getType();
  if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
    return store.getSrc().getType();
  if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(op))
    return reduce.getSrc().getType();
  return {};
}

unsigned loopDepth(Operation *op) {
  unsigned depth = 0;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    depth += isa<LoopLikeOpInterface>(p);
  return depth;
}

/// `tensor`'s type split over the CTAs by the block CGA `cga` (flattened,
/// of rank `blockRank`): a blocked layout keeping the tensor's per-thread
/// vector and order.
RankedTensorType withSplit(Operation *at, RankedTensorType tensor, ArrayRef<int32_t> cga,
                           unsigned blockRank) {
  unsigned rank = tensor.getRank();
  SmallVector<int32_t> own = ttg::rerankBases(cga, blockRank, rank);
  SmallVector<unsigned> size(rank, 1), order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(tensor.getEncoding())) {
    size.assign(blocked.getSizePerThread().begin(), blocked.getSizePerThread().end());
    order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  }
  auto enc = ttg::buildBlockedEncoding(at->getContext(), tensor.getShape(), size, order,
                                       ttg::lookupNumWarps(at).value_or(4),
                                       ttg::lookupThreadsPerWarp(at), own);
  return tensor.cloneWithEncoding(enc);
}

/// The CTA split of each class of descriptor values (by its root).
struct ClusterSplits {
  DescriptorClasses classes;
  DenseMap<Value, SmallVector<int32_t>> byRoot;
  ArrayRef<int32_t> of(Value v) {
    auto it = byRoot.find(classes.find(v));
    return it == byRoot.end() ? ArrayRef<int32_t>() : ArrayRef<int32_t>(it->second);
  }
};

/// In a program of several CTAs, each descriptor's block is split over them
/// as the tensors copied through it are, so that each CTA copies its tile.
/// When copies through one descriptor split differently, the split of the
/// most deeply nested one (a loop's, not an epilogue's) wins and the
/// others convert their tensors to it.
ClusterSplits clusterSplits(ModuleOp module) {
  ClusterSplits result;
  if (ttg::lookupNumCTAs(module) == 1)
    return result;
  result.classes = classesOf(module);
  DescriptorClasses &classes = result.classes;
  DenseMap<Value, Operation *> chosen;
  SmallVector<Operation *> copies;
  module.walk([&](Operation *op) {
    RankedTensorType tensor = copiedTensor(op);
    if (!tensor)
      return;
    copies.push_back(op);
    Operation *&best = chosen[classes.find(op->getOperand(0))];
    if (!best || loopDepth(op) > loopDepth(best))
      best = op;
  });
  for (auto &[root, op] : chosen) {
    auto desc = cast<tt::TensorDescType>(op->getOperand(0).getType());
    result.byRoot[root] = blockCGA(copiedTensor(op), desc.getBlockType().getRank());
  }
  for (Operation *op : copies) {
    unsigned blockRank = cast<tt::TensorDescType>(op->getOperand(0).getType()).getBlockType().getRank();
    ArrayRef<int32_t> cga = result.of(op->getOperand(0));
    RankedTensorType tensor = copiedTensor(op);
    if (blockCGA(tensor, blockRank) == cga)
      continue;
    RankedTensorType split = withSplit(op, tensor, cga, blockRank);
    OpBuilder b(op);
    if (auto load = dyn_cast<tt::DescriptorLoadOp>(op)) {
      b.setInsertionPointAfter(load);
      auto cvt = ttg::ConvertLayoutOp::create(b, load.getLoc(), tensor, load.getResult());
      load.getResult().replaceAllUsesExcept(cvt, cvt);
      load.getResult().setType(split);
      continue;
    }
    // A store or reduction: its source converts to the split.
    OpOperand &src = isa<tt::DescriptorStoreOp>(op) ? cast<tt::DescriptorStoreOp>(op).getSrcMutable()
                                                    : cast<tt::DescriptorReduceOp>(op).getSrcMutable();
    src.set(ttg::ConvertLayoutOp::create(b, op->getLoc(), split, src.get()));
  }
  return result;
}

/// The descriptor type with its default TMA encoding, or null when `type`
/// is no descriptor or already has an encoding.
Type withEncoding(Type type, ArrayRef<int32_t> cga) {
  auto desc = dyn_cast<tt::TensorDescType>(type);
  if (!desc || desc.getBlockType().getEncoding())
    return {};
  RankedTensorType block = desc.getBlockType();
  if (!block.getElementType().isIntOrFloat())
    return {};
  Attribute enc = ttng::defaultTMAEncoding(desc.getSignlessBlockType(), cga);
  return tt::TensorDescType::get(type.getContext(),
                                 RankedTensorType::get(block.getShape(), block.getElementType(),
                                                       enc));
}

struct OptimizeDescriptorEncoding
    : kiln::nvidia::impl::OptimizeDescriptorEncodingBase<OptimizeDescriptorEncoding> {
  void runOnOperation() override {
    ClusterSplits splits = clusterSplits(getOperation());
    auto retype = [&](Value v) {
      if (Type t = withEncoding(v.getType(), splits.of(v)))
        v.setType(t);
    };
    getOperation().walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            retype(arg);
      for (Value result : op->getResults())
        retype(result);
    });
    getOperation().walk([](tt::FuncOp func) {
      if (func.isExternal())
        return;
      FunctionType type = func.getFunctionType();
      SmallVector<Type> results(type.getResults());
      // A function returning a descriptor returns what its body returns.
      func.walk([&](tt::ReturnOp ret) {
        if (ret->getParentOp() == func)
          results.assign(ret.getOperandTypes().begin(), ret.getOperandTypes().end());
      });
      func.setFunctionType(FunctionType::get(func.getContext(),
                                             func.getBody().front().getArgumentTypes(), results));
    });
  }
};

} // namespace
