//===- PipelineEditorTest.cpp - edits applied to the core pipeline --------===//
//
// The editor through its C++ API, without plugin libraries: the same edits a
// plugin makes in extendPipeline, recorded under a made-up plugin name.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/Registry.h"
#include "kiln/Pipeline/PipelineEditor.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

using namespace kiln;

namespace {

PassFactory cse() {
  return [](const CompileOptions &) { return mlir::createCSEPass(); };
}

CompileOptions cuda90() {
  CompileOptions options;
  options.target = Target{"cuda", "90"};
  return options;
}

std::vector<std::string> ids(const Pipeline &pipeline, llvm::StringRef stage) {
  std::vector<std::string> out;
  for (const PassEntry &entry : pipeline.findStage(stage)->entries)
    out.push_back(entry.id + (entry.disabledBy.empty() ? "" : "(off)"));
  return out;
}

std::string errorOf(llvm::Expected<Pipeline> pipeline) {
  if (pipeline)
    return "";
  return llvm::toString(pipeline.takeError());
}

TEST(PipelineEditor, EditsApplyInOrderOnWhatThePreviousLeft) {
  std::vector<PipelineEdit> edits;
  PipelineEditor a("a", "a.so", edits), b("b", "b.so", edits);
  a.insertAfter("ttir.inline", "a.one", cse());
  b.insertAfter("ttir.inline", "b.one", cse()); // nearer the anchor
  b.insertAfter("a.one", "b.two", cse());       // anchored on another plugin's pass
  a.prepend("ttgir", "a.first", cse());
  b.prepend("ttgir", "b.first", cse());
  a.append("ttgir", "a.last", cse());
  a.disable("ttir.licm");
  b.replace("ttir.cse", "b.cse", cse());

  llvm::Expected<Pipeline> pipeline = buildPipeline(cuda90(), edits);
  ASSERT_TRUE(static_cast<bool>(pipeline)) << llvm::toString(pipeline.takeError());
  EXPECT_EQ(ids(*pipeline, "ttir"),
            (std::vector<std::string>{"ttir.inline", "b.one", "a.one", "b.two",
                                      "ttir.expand-kernel-ops",
                                      "ttir.rewrite-tensor-pointer", "ttir.canonicalize",
                                      "ttir.combine",
                                      "ttir.reorder-broadcast", "b.cse", "ttir.licm(off)",
                                      "ttir.symbol-dce", "ttir.loop-unroll"}));
  EXPECT_EQ(ids(*pipeline, "ttgir"),
            (std::vector<std::string>{"b.first", "a.first", "ttgir.decompose-scaled-dot",
                                      "ttgir.convert-from-ttir",
                                      "ttgir.coalesce", "ttgir.remove-layout-conversions",
                                      "ttgir.optimize-thread-locality", "ttgir.split-tf32x3-dots",
                                      "ttgir.accelerate-matmul",
                                      "ttgir.remove-layout-conversions-after-matmul",
                                      "ttgir.optimize-descriptor-encoding", "ttgir.cse",
                                      "ttgir.licm", "ttgir.canonicalize",
                                      "ttgir.warp-specialize", "ttgir.fuse-nested-loops",
                                      "ttgir.optimize-accumulator-init", "ttgir.pipeline",
                                      "ttgir.tma-lowering", "ttgir.overlap-tile-epilogue",
                                      "ttgir.symbol-dce",
                                      "ttgir.fence-insertion",
                                      "a.last"}));
  const PassEntry &replaced = pipeline->findStage("ttir")->entries[9];
  EXPECT_EQ(replaced.owner, "b");
  EXPECT_EQ(replaced.placement, "replace ttir.cse");
}

TEST(PipelineEditor, ScopesSelectBackendsAndTargets) {
  std::vector<PipelineEdit> edits;
  PipelineEditor p("p", "p.so", edits);
  p.disable("ttir.cse", EditScope::forBackend("amd"));
  p.disable("ttir.licm", EditScope::forTarget("cuda:80"));

  Pipeline nvidia90 = llvm::cantFail(buildPipeline(cuda90(), edits));
  EXPECT_EQ(ids(nvidia90, "ttir")[6], "ttir.cse");
  EXPECT_EQ(ids(nvidia90, "ttir")[7], "ttir.licm");

  // Targets without TMA run one more ttir pass, the descriptor rewrite.
  CompileOptions sm80 = cuda90();
  sm80.target.arch = "80";
  EXPECT_EQ(ids(llvm::cantFail(buildPipeline(sm80, edits)), "ttir")[8], "ttir.licm(off)");

  CompileOptions gfx = cuda90();
  gfx.target = Target{"hip", "gfx942"};
  EXPECT_EQ(ids(llvm::cantFail(buildPipeline(gfx, edits)), "ttir")[7], "ttir.cse(off)");
}

TEST(PipelineEditor, KernelPredicatesAreEvaluatedOnTheModule) {
  mlir::MLIRContext context;
  context.loadDialect<tt::TritonDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(
      "tt.func public @k_add() attributes {fast} { tt.return }", &context);
  ASSERT_TRUE(module);

  std::vector<PipelineEdit> edits;
  PipelineEditor p("p", "p.so", edits);
  p.insertAfter("ttir.cse", "p.by-name", cse(),
                EditScope::forKernels(KernelPredicate::nameMatches("k_add*")));
  p.insertAfter("ttir.cse", "p.other-name", cse(),
                EditScope::forKernels(KernelPredicate::nameMatches("k_mul*")));
  p.insertAfter("ttir.cse", "p.by-attr", cse(),
                EditScope::forKernels(KernelPredicate::hasAttribute("fast")));

  std::vector<std::string> got = ids(llvm::cantFail(buildPipeline(cuda90(), edits, *module)), "ttir");
  EXPECT_NE(std::find(got.begin(), got.end(), "p.by-name"), got.end());
  EXPECT_NE(std::find(got.begin(), got.end(), "p.by-attr"), got.end());
  EXPECT_EQ(std::find(got.begin(), got.end(), "p.other-name"), got.end());

  // Without a module every edit applies, its condition kept for listings.
  Pipeline listed = llvm::cantFail(buildPipeline(cuda90(), edits));
  for (const PassEntry &entry : listed.findStage("ttir")->entries)
    if (entry.owner == "p")
      EXPECT_FALSE(entry.condition.empty()) << entry.id;
}

TEST(PipelineEditor, ConflictsAndUnknownNamesAreErrors) {
  auto build = [](llvm::function_ref<void(PipelineEditor &, PipelineEditor &)> fn) {
    std::vector<PipelineEdit> edits;
    PipelineEditor a("a", "a.so", edits), b("b", "b.so", edits);
    fn(a, b);
    return errorOf(buildPipeline(cuda90(), edits));
  };
  EXPECT_EQ(build([](PipelineEditor &a, PipelineEditor &) {
              a.insertBefore("ttir.nope", "a.x", cse());
            }),
            "plugin 'a' (a.so): insert-before ttir.nope: unknown pass id 'ttir.nope' (run "
            "'kiln pipeline' to list the ids)");
  EXPECT_EQ(build([](PipelineEditor &a, PipelineEditor &) { a.append("nope", "a.x", cse()); }),
            "plugin 'a' (a.so): append to nope: unknown stage 'nope'");
  EXPECT_EQ(build([](PipelineEditor &a, PipelineEditor &b) {
              a.replace("ttir.cse", "a.cse", cse());
              b.replace("ttir.cse", "b.cse", cse());
            }),
            "plugin 'b' (b.so): replace ttir.cse: pass 'ttir.cse' was already replaced by "
            "plugin 'a'");
  EXPECT_EQ(build([](PipelineEditor &a, PipelineEditor &b) {
              a.overrideStage("llir", [](Artifact &, const CompileOptions &) {
                return mlir::success();
              });
              b.overrideStage("llir", [](Artifact &, const CompileOptions &) {
                return mlir::success();
              });
            }),
            "plugin 'b' (b.so): override stage llir: stage 'llir' is already overridden by "
            "plugin 'a'");
  EXPECT_EQ(build([](PipelineEditor &a, PipelineEditor &) {
              a.insertAfter("ttir.cse", "a.x", cse());
              a.insertAfter("ttir.cse", "a.x", cse());
            }),
            "plugin 'a' (a.so): insert-after ttir.cse: pass id 'a.x' already exists");
}

TEST(PipelineEditor, ReplacedPassesAreNoAnchorsForAnyKernel) {
  mlir::MLIRContext context;
  context.loadDialect<tt::TritonDialect>();
  auto foo = mlir::parseSourceString<mlir::ModuleOp>("tt.func public @foo() { tt.return }",
                                                     &context);
  auto bar = mlir::parseSourceString<mlir::ModuleOp>("tt.func public @bar() { tt.return }",
                                                     &context);
  ASSERT_TRUE(foo && bar);
  std::vector<PipelineEdit> edits;
  PipelineEditor a("a", "a.so", edits), b("b", "b.so", edits);
  a.replace("ttir.cse", "a.cse", cse(),
            EditScope::forKernels(KernelPredicate::nameMatches("foo")));
  b.insertAfter("ttir.cse", "b.x", cse());
  std::string expected = "plugin 'b' (b.so): insert-after ttir.cse: pass 'ttir.cse' was "
                         "already replaced by plugin 'a'";
  EXPECT_EQ(errorOf(buildPipeline(cuda90(), edits)), expected);
  EXPECT_EQ(errorOf(buildPipeline(cuda90(), edits, *foo)), expected);
  // For a kernel the replacement skips, the anchor still exists; the
  // stricter module-less build is what loading checks.
  EXPECT_EQ(errorOf(buildPipeline(cuda90(), edits, *bar)), "");
}

TEST(PipelineEditor, EditsAnchoredOnSkippedPassesAreSkipped) {
  mlir::MLIRContext context;
  context.loadDialect<tt::TritonDialect>();
  auto bar = mlir::parseSourceString<mlir::ModuleOp>("tt.func public @bar() { tt.return }",
                                                     &context);
  ASSERT_TRUE(bar);
  std::vector<PipelineEdit> edits;
  PipelineEditor a("a", "a.so", edits), b("b", "b.so", edits);
  a.insertAfter("ttir.cse", "a.only-foo", cse(),
                EditScope::forKernels(KernelPredicate::nameMatches("foo")));
  b.insertAfter("a.only-foo", "b.after-a", cse());
  b.disable("a.only-foo");
  Pipeline forBar = llvm::cantFail(buildPipeline(cuda90(), edits, *bar));
  std::vector<std::string> got = ids(forBar, "ttir");
  EXPECT_EQ(std::find(got.begin(), got.end(), "a.only-foo"), got.end());
  EXPECT_EQ(std::find(got.begin(), got.end(), "b.after-a"), got.end());
  std::vector<std::string> listed = ids(llvm::cantFail(buildPipeline(cuda90(), edits)), "ttir");
  EXPECT_NE(std::find(listed.begin(), listed.end(), "b.after-a"), listed.end());
}

TEST(PipelineEditor, ValidateEditChecksNamesAndScopes) {
  std::vector<PipelineEdit> edits;
  PipelineEditor a("a", "a.so", edits);
  a.insertAfter("ttir.cse", "other.x", cse());
  a.insertAfter("ttir.cse", "a.y", nullptr);
  a.disable("ttir.cse", EditScope::forBackend("metal"));
  ASSERT_EQ(edits.size(), 3u);
  EXPECT_EQ(llvm::toString(validateEdit(edits[0])),
            "plugin 'a' (a.so): insert-after ttir.cse: new pass id 'other.x' must be "
            "'a.<name>'");
  EXPECT_EQ(llvm::toString(validateEdit(edits[1])),
            "plugin 'a' (a.so): insert-after ttir.cse: null pass factory for 'a.y'");
  EXPECT_EQ(llvm::toString(validateEdit(edits[2])),
            "plugin 'a' (a.so): disable ttir.cse: unknown backend 'metal' in scope (expected "
            "nvidia or amd)");
}

} // namespace
