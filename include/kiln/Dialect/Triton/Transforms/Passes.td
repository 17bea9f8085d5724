//===- Passes.td - kiln's passes over the tt dialect --------*- tablegen -*-===//
//
// The kiln-specific passes of the `ttir` stage. Their behaviour follows the
// Triton 3.6 passes of the same purpose (`-triton-combine`,
// `-triton-reorder-broadcast`, `-triton-loop-unroll`,
// `-triton-rewrite-tensor-pointer`,
// `-triton-rewrite-tensor-descriptor-to-pointer`); kiln names them
// `ttir-*` after the stage they belong to. `ttgir-decompose-scaled-dot`
// works on tt ops too but runs first in the `ttgir` stage (back ends with
// block-scaled instructions leave it out), as Triton's decomposition does.
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

def TritonDecomposeScaledDot : Pass<"ttgir-decompose-scaled-dot", "::mlir::ModuleOp"> {
  let summary = "tt.dot_scaled as upcast, scaled operands and a tt.dot";
  let description = [{
    For targets without block-scaled tensor-core instructions, rewrites
    every `tt.dot_scaled` (before layouts are assigned) as Triton does on
    sm_80 and sm_90:

    * the compute type is f16 when either operand is `fp16`, else bf16;
    * `e2m1` operands (two values per i8, the low nibble first, packed along
      K, or along M / N without `k_pack`) are decoded into the compute type
      and interleaved back into place; `e4m3`, `e5m2` and the 16-bit formats
      are converted with `tt.fp_to_fp`;
    * each operand with a scale is multiplied by it, repeated over the 16 or
      32 elements of K each value covers (b's scale is given [N, K / g] and
      transposed). An e8m0 scale s (i8) is 2^(s - 127) written into the
      exponent bits (s = 0 gives 0; through f32 for f16, so it saturates);
      a float scale is converted;
    * without `fastMath`, values whose scale is the e8m0 NaN (255) or a NaN
      float become NaN;
    * the product is `tt.dot(a, b, c)` with f32 (or the op's) accumulation.

    A `tt.dot_scaled` that already has a layout is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::kiln::tt::TritonDialect"];
}

def TritonLoopInvariantCodeMotion : Pass<"ttir-licm", "::mlir::ModuleOp"> {
  let summary = "Loop-invariant code motion, except in loops marked tt.disable_licm";
  let description = [{
    MLIR's loop-invariant code motion over every loop-like op (`scf.for`,
    `scf.while`, ...) but those with the `tt.disable_licm` attribute
    (`tl.range(..., disable_licm=True)`), whose bodies keep every op where
    it is; the LLVM lowering then marks their back edges
    `llvm.licm.disable` so that LLVM does not hoist either. Runs in the
    ttir stage (`ttir.licm`) and again after the layout passes
    (`ttgir.licm`).
  }];
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

def TritonRewriteTensorPointer : Pass<"ttir-rewrite-tensor-pointer", "::mlir::ModuleOp"> {
  let summary = "Rewrite block pointers into tensors of pointers with masks";
  let description = [{
    Removes every block pointer (`!tt.ptr<tensor<...>>`), as Triton's
    `triton-rewrite-tensor-pointer` does:

    * `tt.make_tensor_ptr base, [shape], [strides], [offsets]` and
      `tt.advance` become plain values: the base pointer and, per
      dimension, the i64 shape, stride and offset (i32 offsets and advance
      deltas are sign-extended to i64 and added in i64).
    * a `tt.load`/`tt.store` through one addresses
      `base + sum_d (offset_d + range_d) * stride_d` as a tensor of pointers.
      Each dimension in `boundaryCheck` adds `0 <= offset_d + range_d <
      shape_d` to the mask; a load with a mask and `padding = zero|nan`
      reads zero or NaN where the mask is false (without padding those
      elements are undefined, as in Triton).
    * block pointers carried through `scf.for`, `scf.if` and `scf.while`
      (arguments, results, yields, conditions), `arith.select`, `tt.func`
      arguments and results, `tt.call` and `tt.return` are carried as
      their parts. Unlike Triton, which carries only the offsets through
      loops and `scf.if` and rejects `scf.while`, every part is carried, so
      a loop may yield a different block pointer; the canonicalizer after
      this pass drops the parts a loop leaves unchanged.

    Any other op that uses a block pointer (e.g. `cf.br`) is an error at
    that op; the pass fails and changes nothing.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::kiln::tt::TritonDialect"];
}

def TritonRewriteTensorDescriptorToPointer
    : Pass<"ttir-rewrite-tensor-descriptor-to-pointer", "::mlir::ModuleOp"> {
  let summary = "Rewrite tensor descriptors into pointer arithmetic with masks";
  let description = [{
    For targets without TMA (NVIDIA below sm_90, and AMD), replaces every
    tensor descriptor (`!tt.tensordesc<...>`) by its parts, as Triton's
    `triton-rewrite-tensor-descriptor-to-pointer` does: the base pointer,
    the shape as i64 per dimension (`tt.make_tensor_descriptor` takes i32,
    sign-extended), the strides as i64, and an i1 that is true for
    `padding = nan`.

    * `tt.descriptor_load` becomes a `tt.load` of
      `base + sum_d (index_d + range_d) * stride_d`, masked by
      `0 <= index_d + range_d < shape_d` on every dimension; masked-off
      elements read zero, or NaN for a float block of a NaN-padded
      descriptor. A result of another shape with the same elements (a
      rank-reduced load) is a `tt.reshape` of the block.
    * `tt.descriptor_store` becomes a `tt.store` with the same mask.
    * `tt.descriptor_gather`/`tt.descriptor_scatter` address rows
      `x_offsets` and columns `y_offset + range`, masked on both.
    * `tt.descriptor_reduce` becomes a masked `tt.atomic_rmw` (release,
      gpu scope): add (fadd for floats), and/or/xor, and integer min/max
      (unsigned for an unsigned block, else signed). Float min/max and
      inc/dec have no pointer atomic and are an error.
    * descriptors crossing `tt.func` arguments and results, `tt.call`,
      `tt.return`, `arith.select` and the scf structural ops are carried as
      their parts. A kernel argument of descriptor type therefore becomes
      (pointer, shape..., strides..., padding-is-nan), which is what
      Triton's launcher passes for a host descriptor on these targets.

    Any other op that uses a descriptor is an error at that op.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::kiln::tt::TritonDialect"];
}

#endif
