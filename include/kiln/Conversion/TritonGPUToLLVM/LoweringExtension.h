//===- LoweringExtension.h - back ends and plugins in the lowering -*- C++ -*-===//
//
// The TTGIR-to-LLVM lowering is backend-neutral. What it cannot know comes
// from two registries, filled once per process:
//  - a TargetInfo factory per target kind ("cuda"), registered by the back
//    end that compiles it;
//  - lowering extensions: the patterns, checks and shared-memory effects of
//    ops the neutral lowering does not know (a back end's own ops, a
//    plugin's dialect), each for one target kind or for every target.
// llir.insert-barriers and llir.convert-to-llvm ask them; so an op of a
// back end or a plugin can live until the llir stage.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_LOWERINGEXTENSION_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_LOWERINGEXTENSION_H

#include "kiln/Base/Options.h"
#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ConversionTarget;
class DialectRegistry;
} // namespace mlir

namespace kiln {

namespace lowering {
class TypeConverter;
struct Context;
} // namespace lowering

/// One shared-memory access of an op, for llir.insert-barriers.
struct SharedEffect {
  enum class Kind {
    Read,
    Write,
    /// A write that completes through a barrier object the op also names
    /// (a TMA load): it waits for what is pending but is never pending
    /// itself.
    AsyncWrite,
    /// A read through another memory proxy (a TMA store): after generic
    /// writes it needs the extension's proxy fence, then a CTA barrier.
    ProxyRead,
  };
  mlir::Value buffer; ///< a `!ttg.memdesc`; null: all of shared memory
  Kind kind;
};

class LoweringExtension {
public:
  virtual ~LoweringExtension();
  /// Dialects the patterns create ops of.
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const {}
  /// Whether `op` is one this extension lowers (its patterns will).
  virtual bool lowers(mlir::Operation *op, const lowering::Context &ctx) const = 0;
  /// Called for every op before anything is converted: a located error
  /// when an op it cares about (its own, or any other it constrains) cannot
  /// be lowered for the target.
  virtual mlir::LogicalResult check(mlir::Operation *op, const lowering::Context &ctx) const {
    return mlir::success();
  }
  virtual void populatePatterns(lowering::TypeConverter &converter, const lowering::Context &ctx,
                                mlir::RewritePatternSet &patterns) const = 0;
  /// Marks the dialects the patterns produce legal (e.g. "nvvm") and its
  /// own dialects illegal.
  virtual void configureTarget(mlir::ConversionTarget &target) const {}
  /// For llir.insert-barriers: the shared-memory accesses of `op` when it
  /// is one of this extension's ops (true), or false.
  virtual bool sharedEffects(mlir::Operation *op,
                              llvm::SmallVectorImpl<SharedEffect> &effects) const {
    return false;
  }
  /// Inserts at `b` the fence that orders generic shared-memory writes
  /// before a ProxyRead of one of its ops.
  virtual void insertProxyFence(mlir::OpBuilder &b, mlir::Location loc) const {}
  /// Whether `op` is such a fence (one already there is not repeated).
  virtual bool isProxyFence(mlir::Operation *op) const { return false; }
  /// Whether this extension's lowering of `op` handles shared-memory
  /// buffers split over the CTAs of a cluster itself (each CTA moving its
  /// tile), so the generic check of a program of several CTAs lets it be.
  virtual bool lowersCTATiles(mlir::Operation *op) const { return false; }
};

/// Makes the TargetInfo of one `ttg.target` ("cuda:90"); an error says
/// what it supports.
using TargetInfoFactory =
    std::function<llvm::Expected<std::unique_ptr<TargetInfo>>(llvm::StringRef target)>;

/// The back end compiling target kind `kind` ("cuda") registers its
/// TargetInfo; `spelling` says how its targets are written, for errors
/// (`"cuda:<cc>" (e.g. "cuda:90")`). A second registration for a kind
/// replaces nothing and returns false.
bool registerTargetInfo(llvm::StringRef kind, llvm::StringRef spelling,
                        TargetInfoFactory factory);
/// Adds `extension` for targets of kind `kind`, or for every target when
/// `kind` is empty. `owner` names it in messages (a back end or a plugin).
void registerLoweringExtension(llvm::StringRef kind, llvm::StringRef owner,
                               std::shared_ptr<const LoweringExtension> extension);

/// The TargetInfo for a module's `ttg.target` ("cuda:90"), or an error
/// naming the targets the lowering supports.
llvm::Expected<std::unique_ptr<TargetInfo>> createTargetInfo(llvm::StringRef target);
/// The extensions that apply to `target` (empty: every extension), in
/// registration order.
std::vector<const LoweringExtension *> loweringExtensions(llvm::StringRef target = "");

} // namespace kiln

#endif
