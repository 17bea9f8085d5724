//===- Lowering.h - shared pieces of the TTGIR-to-LLVM patterns -*- C++ -*-===//
//
// A tensor with a distributed layout is lowered to an LLVM struct of one
// thread's registers, register i at position i (the order of the linear
// layout's register bases). The helpers here move between that struct and
// its values and evaluate a layout on the thread's ids. Installed: back ends
// and plugins write their patterns (LoweringExtension.h) with them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_LOWERING_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_LOWERING_H

#include "kiln/Base/Options.h"
#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"
#include "kiln/Layout/LinearLayout.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
class AxisInfoAnalysis;
} // namespace kiln

namespace kiln::lowering {

/// tt pointers become LLVM pointers of the same address space; tensors with
/// a ttg distributed layout become structs of their registers; a shared
/// memory descriptor becomes the `!llvm.ptr<3>` of its first element.
class TypeConverter : public mlir::LLVMTypeConverter {
public:
  TypeConverter(mlir::MLIRContext *ctx, const mlir::LowerToLLVMOptions &options);
};

/// What every pattern needs besides the type converter.
struct Context {
  const TargetInfo &target;
  unsigned warpSize;
  unsigned numWarps;
  /// The compile's options (plugin options included); null when the pass
  /// runs outside a compile (kiln-opt).
  const CompileOptions *options = nullptr;
  /// Per tt.load / tt.store, the vector width chosen before conversion
  /// (the analysis reads the IR the conversion rewrites).
  llvm::DenseMap<mlir::Operation *, unsigned> vectorWidths{};
  unsigned vectorWidth(mlir::Operation *op) const {
    return std::max(1u, vectorWidths.lookup(op));
  }
  /// CTAs per program (`ttg.num-ctas`): above 1, a program is a cluster and
  /// each CTA holds its tile of every tensor.
  unsigned numCTAs = 1;
  /// CTAs per cluster (ttg::lookupClusterCTAs): above 1, a program is a
  /// cluster, whether its layouts span it or each CTA runs alone.
  unsigned clusterCTAs = 1;
};

/// The layout of this CTA's tile of a tensor type (layout::ctaTile; the
/// whole layout in a program of one CTA), known to be valid (the pass
/// checks every type before converting). What code that moves data inside
/// a CTA works with.
layout::LinearLayout layoutOf(mlir::Type tensorType);
/// The layout of the whole tensor over the program's CTAs, for tensor
/// coordinates and for checking that an op keeps each element in its CTA.
layout::LinearLayout globalLayoutOf(mlir::Type tensorType);

/// The registers of a lowered tensor, and back.
llvm::SmallVector<mlir::Value> unpack(mlir::OpBuilder &b, mlir::Location loc, mlir::Value st);
mlir::Value pack(mlir::OpBuilder &b, mlir::Location loc, mlir::Type structType,
                 mlir::ValueRange values);

mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// The signature of a tt.func as an llvm.func takes it: the converted
/// arguments, for a device function the `!llvm.ptr<3>` of its part of
/// shared memory, then Triton's two hidden `!llvm.ptr<1>` (global_scratch,
/// profile_scratch); failure when an argument has no LLVM form.
mlir::FailureOr<mlir::TypeConverter::SignatureConversion>
kernelABISignature(const mlir::TypeConverter &converter, mlir::FunctionType type,
                   bool deviceFunction = false);

/// The value of output `name` in a named application of a layout (0 when
/// the layout has no such output).
int32_t component(llvm::ArrayRef<std::pair<std::string, int32_t>> out, llvm::StringRef name);

/// The XOR of the bases of input `in` along output `out` for the set bits
/// of the i32 `bits` (a linear layout applied to a value known at run
/// time), XORed into `acc` when given; null when no basis moves `out`.
mlir::Value xorOfBases(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits,
                       const layout::LinearLayout::InDim &in, unsigned out, mlir::Value acc);

/// The thread's lane and warp ids.
std::pair<mlir::Value, mlir::Value> laneAndWarp(mlir::OpBuilder &b, mlir::Location loc,
                                                const Context &ctx);

/// For each register of a distributed layout, the i32 tensor coordinates it
/// holds on this thread: L(register, lane, warp, block). Give the whole
/// layout (globalLayoutOf) for coordinates in the tensor, a CTA tile
/// (layoutOf) for coordinates in the tile.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
registerCoordinates(mlir::OpBuilder &b, mlir::Location loc, const layout::LinearLayout &ll,
                    const Context &ctx);

/// True on the threads that own their elements of a tensor in layout `ll`,
/// the whole layout (its free lane, warp and block bits are 0; null `ll`: a
/// scalar, owned by thread 0 of CTA 0), so that each element is written
/// once; null when every thread does.
mlir::Value ownerPredicate(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx,
                           const layout::LinearLayout *ll);

/// A generic pointer to a constant copy of `text` plus a NUL, in a global
/// of `at`'s module named `<prefix><n>` (shared by equal texts): printf
/// formats and assertion messages.
mlir::Value stringPointer(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                          mlir::Operation *at, llvm::StringRef prefix, llvm::StringRef text);

/// The file and line of an op's location (through call sites and names),
/// for messages a kernel prints; "unknown" and 0 when it has none.
std::pair<std::string, unsigned> sourceLine(mlir::Location loc);

/// The name of the kernel's dynamic shared-memory array, as in Triton.
inline constexpr llvm::StringLiteral kSharedMemoryGlobal = "global_smem";

/// The base of the shared memory of the function `op` is in: the kernel's
/// dynamic array, or a device function's argument (its caller's part).
mlir::Value functionSharedMemory(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *op);

/// The `!llvm.ptr<3>` to the shared memory `owner` was given by
/// llir.allocate-shared-memory (its `allocation.offset`, from the base of
/// its function's shared memory); a located error when the pass did not
/// run.
mlir::FailureOr<mlir::Value> sharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::Operation *owner);

/// The `!llvm.ptr<1>` to the global scratch memory `owner` (a
/// `ttg.global_scratch_alloc`, or a call of a function that needs some) was
/// given by llir.allocate-global-scratch: in a kernel, its program's slice
/// of the hidden global_scratch parameter; in a device function, the part
/// its call passed. A located error when the pass did not run.
mlir::FailureOr<mlir::Value> globalScratchBase(mlir::OpBuilder &b, mlir::Location loc,
                                               const Context &ctx, mlir::Operation *owner);

/// A warp shuffle of any scalar of at most 64 bits (ints, floats, pointers),
/// moved as one or two i32s.
mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx, mlir::Value v,
                    TargetInfo::Shuffle kind, mlir::Value laneOrMask);
mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx, mlir::Value v,
                    TargetInfo::Shuffle kind, int32_t laneOrMask);

void populateFuncPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);
void populateElementwisePatterns(TypeConverter &converter, const Context &ctx,
                                 mlir::RewritePatternSet &patterns);
void populateShapePatterns(TypeConverter &converter, const Context &ctx,
                           mlir::RewritePatternSet &patterns);
void populateLoadStorePatterns(TypeConverter &converter, const Context &ctx,
                               mlir::RewritePatternSet &patterns);
void populateReducePatterns(TypeConverter &converter, const Context &ctx,
                            mlir::RewritePatternSet &patterns);
void populateScanPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);
void populateSharedMemoryPatterns(TypeConverter &converter, const Context &ctx,
                                  mlir::RewritePatternSet &patterns);
void populateConvertLayoutPatterns(TypeConverter &converter, const Context &ctx,
                                   mlir::RewritePatternSet &patterns);
void populateLocalMemoryPatterns(TypeConverter &converter, const Context &ctx,
                                 mlir::RewritePatternSet &patterns);
void populateViewPatterns(TypeConverter &converter, const Context &ctx,
                          mlir::RewritePatternSet &patterns);
void populateGatherPatterns(TypeConverter &converter, const Context &ctx,
                            mlir::RewritePatternSet &patterns);
void populateAtomicPatterns(TypeConverter &converter, const Context &ctx,
                            mlir::RewritePatternSet &patterns);
void populateHistogramPatterns(TypeConverter &converter, const Context &ctx,
                               mlir::RewritePatternSet &patterns);
void populateAsyncCopyPatterns(TypeConverter &converter, const Context &ctx,
                               mlir::RewritePatternSet &patterns);

/// A located error when, in a program of `numCTAs` CTAs, `op` would have
/// to move elements between CTAs (ClusterChecks.cpp); checked before
/// anything is converted.
mlir::LogicalResult checkCTALocality(mlir::Operation *op, unsigned numCTAs,
                                     bool lowersCTATiles = false);

/// A located error when an async copy cannot be lowered for the target
/// (checked before anything is converted).
mlir::LogicalResult checkAsyncLowering(mlir::Operation *op, const TargetInfo &target);

/// The elements each cp.async of ttg.async_copy_global_to_local `op`
/// moves: what the shared layout, the pointers' contiguity (`axes` and the
/// op's `contiguity`), the mask and the 16-byte limit allow. A located
/// error when that is under 4 bytes. Must run before the IR is converted.
mlir::FailureOr<unsigned> asyncCopyVectorWidth(mlir::Operation *op,
                                               const AxisInfoAnalysis &axes);

void populateDotPatterns(TypeConverter &converter, const Context &ctx,
                         mlir::RewritePatternSet &patterns);

/// ttg.warp_specialize keeps its regions through the conversion, with its
/// types converted; it is legal once they are.
void populateWarpSpecializePatterns(TypeConverter &converter, mlir::ConversionTarget &target,
                                    mlir::RewritePatternSet &patterns);
/// A located error for a ttg.warp_specialize the back ends cannot run
/// (tensor captures, nesting).
mlir::LogicalResult checkWarpSpecializeLowering(mlir::Operation *op);

/// The element at which a ttg.memdesc_subslice's view starts, from its
/// source's start (pads included), or a located error where the view's
/// elements cannot be reached from there by adding their offsets (a
/// swizzle mixes the start's offset bits with theirs); checked before
/// anything is converted.
mlir::FailureOr<int32_t> subsliceStart(mlir::Operation *op);

/// Whether a tt.dot has a lowering here (a blocked result: scalar FMAs),
/// and a located error when its operands or types do not fit it.
bool hasDotLowering(mlir::Operation *op);
mlir::LogicalResult checkDotLowering(mlir::Operation *op);

/// The dot_op encoding of operand `v` of a dot whose result has layout
/// `parent`, or null when it has another.
mlir::Attribute dotOperandEncoding(mlir::Value v, mlir::Attribute parent, unsigned opIdx);

/// A located error when an atomic's kind and element type have no
/// instruction on the target (checked before anything is converted).
mlir::LogicalResult checkAtomicLowering(mlir::Operation *op, const TargetInfo &target);

} // namespace kiln::lowering

#endif
