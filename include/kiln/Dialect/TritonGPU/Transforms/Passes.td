//===- Passes.td - kiln's passes of the ttgir stage ---------*- tablegen -*-===//
//
// The passes that turn TTIR into TTGIR and choose its layouts. They follow
// the Triton 3.6 passes of the same purpose (`-convert-triton-to-tritongpu`,
// `-tritongpu-coalesce`, `-tritongpu-remove-layout-conversions`); kiln
// names them `ttgir-*` after the stage they belong to.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES
#define KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def ConvertFromTTIR : Pass<"ttgir-convert-from-ttir", "::mlir::ModuleOp"> {
  let summary = "Give every tensor of a TTIR module a distributed layout";
  let description = [{
    Sets the module attributes `ttg.num-warps`, `ttg.threads-per-warp`,
    `ttg.num-ctas` and `ttg.target`, and gives every tensor without an
    encoding Triton's default blocked layout for its shape: one element per
    thread, dimensions ordered last to first, lanes then warps spread from
    the fastest dimension. Ops that derive their result layout keep doing
    so: a reduction yields the slice of its operand's layout, a broadcast
    and a scan keep their operand's, `tt.trans` permutes it, and
    `tt.expand_dims` takes the slice of its result's. Where an operand's
    layout is not the one its user needs, a `ttg.convert_layout` is
    inserted; `ttgir-remove-layout-conversions` removes what is redundant.
    Function signatures are not changed (pointers stay scalar; tensor
    arguments of device functions get the default layout).
  }];
  let options = [
    Option<"target", "target", "std::string", "\"cuda:90\"", "Target, as Triton names it">,
    Option<"numWarps", "num-warps", "int", "4", "Warps per CTA">,
    Option<"threadsPerWarp", "threads-per-warp", "int", "32", "Lanes per warp">,
    Option<"numCTAs", "num-ctas", "int", "1", "CTAs per cluster">,
  ];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect"];
}

def Coalesce : Pass<"ttgir-coalesce", "::mlir::ModuleOp"> {
  let summary = "Choose memory-coalescing layouts for global loads, stores and atomics";
  let description = [{
    For every `tt.load`, `tt.store`, `tt.atomic_rmw` and `tt.atomic_cas` on a
    tensor of pointers, picks a blocked layout from the axis-info analysis:
    dimensions ordered by decreasing contiguity of the pointers, and along
    the most contiguous one as many elements per thread as are known to be
    consecutive and aligned, at most 128 bits and at most the tensor's share
    per thread. A load may widen to what the other accesses of the same
    shape and order in its def-use slice allow (its data then comes through
    the L1 cache); a write never goes past its own alignment. The op is
    rebuilt in that layout with `ttg.convert_layout` around it.
  }];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect"];
}

def RemoveLayoutConversions : Pass<"ttgir-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Propagate the layouts of memory ops and remove redundant conversions";
  let description = [{
    1. Forward propagation: the layout of every load and atomic result (the
       anchors) flows to its users through elementwise ops, conversions,
       reductions (as a slice), `tt.expand_dims` of a slice, and the
       iteration arguments and results of `scf.for`/`scf.if`; a value
       reached by several layouts keeps the first. Ops are retyped in
       place and conversions inserted where a user keeps its layout.
    2. Backward rematerialisation: a conversion whose source is computed
       only by cheap ops without memory effects (address arithmetic,
       splats, ranges, constants, elementwise math) from values outside
       tensors is replaced by that computation redone in the target
       layout.
    3. Clean-up: conversions of conversions, of splats, ranges and
       constants, and conversions to the same layout fold away; dead ops
       are erased.
  }];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect"];
}

def OptimizeThreadLocality : Pass<"ttgir-optimize-thread-locality", "::mlir::ModuleOp"> {
  let summary = "Thread-local loop reductions; warp-local gathers";
  let description = [{
    As Triton 3.6's tritongpu-optimize-thread-locality:
    - a `tt.reduce` along the last axis of a loaded blocked tensor whose
      only use folds it into a value the enclosing `scf.for` carries, with
      the reduction's own combine op, is split when a thread holds several
      elements of each row: in the loop each thread folds its elements
      (a `tt.reshape allow_reorder efficient_layout` to `[..., N/e, e]`
      and a reduction along the new last axis, in registers) into a
      carried accumulator of its own, which starts at the combine op's
      neutral element; after the loop one reduction across the threads,
      a conversion back to the original layout, and the loop's start
      value folded in. Applied only where the layout engine shows the
      registers keep their rows through the reshape;
    - every `tt.gather` of rank 2 or more on blocked operands gets a
      blocked layout in which each warp holds whole columns along the
      gather axis (as many lanes along the axis as it has elements, up to
      the warp size; the other lanes and the warps along the other
      dimensions; the axis fastest), so the gather lowers to warp shuffles
      without shared memory, where the lowering would use them in that
      layout (at most 8 source registers for a result register to choose
      from: planGather). Its operands and result are converted, and the op
      is marked `efficient_layout`, which later passes keep.
  }];
  let dependentDialects = ["::kiln::ttg::TritonGPUDialect", "::mlir::arith::ArithDialect"];
}

def FuseNestedLoops : Pass<"ttgir-fuse-nested-loops", "::mlir::ModuleOp"> {
  let summary = "Fuse a tt.flatten loop and the loop it holds into one loop";
  let description = [{
    For an `scf.for` marked `tt.flatten` (Triton's `tl.range(...,
    flatten=True)`, a persistent kernel's loop over tiles) whose body holds
    exactly one `scf.for`, after ops without memory effects and with bounds
    that do not change with the outer loop: one loop over both iteration
    spaces (`T * T2` iterations, an unsigned `i64` counter), carrying the
    outer loop's values, the nested loop's, the outer induction variable,
    the nested loop's iteration index and the values the ops before the
    nested loop compute. Those ops run again in an `scf.if` at the first
    iteration of each outer iteration (the first one's before the loop),
    the nested loop's values restart from their inits there (an
    `arith.select`), and the ops after the nested loop run in an `scf.if`
    at its last iteration. So the pipeliner streams the next outer
    iteration's loads while the current one ends, as Triton 3.6's
    `tritongpu-fuse-nested-loops` makes it. When either trip count is 0 the
    outer loop runs as written, the nested loop replaced by its inits.
    Loops inside a `ttg.warp_specialize` are left alone, and so are
    induction variables that are not integers of at most 32 bits.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def SplitTF32x3Dots : Pass<"ttgir-split-tf32x3-dots", "::mlir::ModuleOp"> {
  let summary = "Split each inputPrecision = tf32x3 dot into three tf32 dots";
  let description = [{
    A `tt.dot` of f32 operands with `inputPrecision = tf32x3` becomes three
    `tf32` dots, which tensor cores compute, in the order of Triton 3.6's
    F32DotTC: each operand is split into a big part (rounded to its top 19
    bits, what a tf32 multiply reads; a NaN kept) and the small rest; the
    two cross products of a big and a small part are summed first, a NaN
    there (the rest of an infinity) counts as 0, the product of the big
    parts is accumulated onto that sum, and the accumulator is added last.
    The error is that of about 22 bits of mantissa instead of tf32's 11.
    Only the ops themselves change; the layouts stay, so the pass runs
    before tensor cores are chosen.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TestPrintAxisInfo : Pass<"test-print-axis-info", "::mlir::ModuleOp"> {
  let summary = "Report the axis info of every op result as a remark";
  let description = [{
    For tests: one remark per result of every op in a `tt.func`, located at
    the op: `contiguity = [..], divisibility = [..], constancy = [..],
    constant_value = N|<none>` (a second result's remark starts with its
    number, `#1: `).
  }];
}

#endif
