//===- Passes.td - kiln's passes over the tt dialect --------*- tablegen -*-===//
//
// The kiln-specific passes of the `ttir` stage. Their behaviour follows the
// Triton 3.6 passes of the same purpose (`-triton-combine`,
// `-triton-reorder-broadcast`, `-triton-loop-unroll`); kiln names them
// `ttir-*` after the stage they belong to.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITON_TRANSFORMS_PASSES
#define KILN_DIALECT_TRITON_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TritonCombine : Pass<"ttir-combine", "::mlir::ModuleOp"> {
  let summary = "Triton's peephole combines on TTIR";
  let description = [{
    Greedily applies the rewrites Triton's combine pass does, plus folding:

    * `addf/addi(tt.dot(a, b, zero), d)` (either operand order) becomes
      `tt.dot(a, b, d)` when the add is the dot's only user and in the same
      block (a dot is never moved into a loop). A float add is not
      combined into a dot with `maxNumImpreciseAcc != 0`, whose partial sums
      are kept in reduced precision. `addf(tt.dot_scaled(..., zero), d)`
      combines the same way.
    * `arith.select(c, tt.load(p, m), other)`, where the mask `m` is `c`
      itself or `tt.splat(c)` and the select is the load's only user,
      becomes `tt.load(p, m, other)`. The load is not moved past anything
      that may write memory.
    * `tt.addptr(tt.addptr(p, x), y)` becomes `tt.addptr(p, x + y)` when `x`
      and `y` have the same type and the sum cannot overflow where the two
      separate advances would not: 64-bit offsets, or constants whose sum
      fits. The outer op's `tt.divisibility`, `tt.contiguity`,
      `tt.constancy` and `tt.pointee_type` attributes carry over.
    * `tt.reduce` summing `broadcast(expand_dims(x, 2)) *
      broadcast(expand_dims(y, 0))` over axis 1 becomes `tt.dot(x, y, 0)`
      (both sides at least 16, or 8 for f64).
    * a 1-D `tt.reshape` whose only users are single-operand `tt.reduce`s or
      `tt.histogram`s may reorder elements (`allow_reorder`).
    * `tt.reshape` that only drops leading unit dimensions of a single-use
      `tt.descriptor_load` becomes the load's own (rank-reduced) result.
    * folding: e.g. `tt.broadcast` of a splat constant becomes a splat
      constant of the broadcast shape.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::kiln::tt::TritonDialect"];
}

def TritonReorderBroadcast : Pass<"ttir-reorder-broadcast", "::mlir::ModuleOp"> {
  let summary = "Move tt.splat and tt.broadcast after elementwise ops";
  let description = [{
    Computes elementwise ops on the smallest tensor that determines them, so
    that less work is done before the data is replicated:

    * `elementwise(splat(a), splat(b), ...)` becomes
      `splat(elementwise(a, b, ...))`; splat constants count as splats.
    * `elementwise(broadcast(a), broadcast(b), splat(c), ...)`, where every
      broadcast has the same source shape, becomes
      `broadcast(elementwise(a, b, splat(c), ...))`.
    * `expand_dims(broadcast(x))` becomes `broadcast(expand_dims(x))`, so
      that a broadcast reaches the elementwise ops below it, together with
      the canonicalisations of `tt.broadcast` and `tt.expand_dims` (e.g.
      `expand_dims(splat(x))` is `splat(x)`).

    Only ops with the `Elementwise` trait and no memory effects move.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::kiln::tt::TritonDialect"];
}

def TritonLoopUnroll : Pass<"ttir-loop-unroll", "::mlir::ModuleOp"> {
  let summary = "Unroll scf.for loops tagged with tt.loop_unroll_factor";
  let description = [{
    Unrolls every `scf.for` that carries an i32 `tt.loop_unroll_factor`
    attribute by that factor (`loopUnrollByFactor`, with an epilogue loop for
    the remaining iterations when the trip count is not a multiple). The
    attribute is removed, so running the pass again changes nothing; a factor
    below 2 only removes it. As in Triton, the epilogue loop gets
    `tt.num_stages = 1` so that it is not software-pipelined. A loop whose
    unrolled copies would exceed 65536 ops (factor times the ops of its body)
    is left rolled, with a warning.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif
