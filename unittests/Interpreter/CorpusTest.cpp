//===- CorpusTest.cpp - the corpus through the C++ API --------------------===//
//
// Every case of test/corpus runs through loadRunSpec, prepareLaunch,
// Interpreter::run and checkOutputs, and every output must pass.
//
//===----------------------------------------------------------------------===//
#include "kiln/Interpreter/Interpreter.h"
#include "kiln/RunSpec/RunSpec.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace kiln::interp;

namespace {

std::vector<std::string> corpusCases() {
  std::vector<std::string> cases;
  std::error_code ec;
  llvm::SmallString<256> root(KILN_SOURCE_DIR);
  llvm::sys::path::append(root, "test", "corpus");
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::SmallString<256> manifest(it->path());
    llvm::sys::path::append(manifest, "manifest.json");
    if (llvm::sys::fs::exists(manifest))
      cases.push_back(it->path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, EveryOutputPasses) {
  auto spec = loadRunSpec(GetParam());
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  mlir::DialectRegistry registry;
  registerInterpreterDialects(registry);
  mlir::MLIRContext ctx(registry);
  auto module = parseKernelFile(spec->ttir, ctx);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  auto launch = prepareLaunch(*spec, **module);
  ASSERT_TRUE(bool(launch)) << llvm::toString(launch.takeError());
  RunOptions opts;
  opts.grid = spec->grid;
  Interpreter interp(**module);
  llvm::Error e = interp.run(launch->kernel, launch->args, launch->memory, opts);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  auto checks = checkOutputs(*spec, *launch);
  ASSERT_TRUE(bool(checks)) << llvm::toString(checks.takeError());
  EXPECT_FALSE(checks->empty());
  for (const OutputCheck &c : *checks)
    EXPECT_TRUE(c.pass) << formatCheck(c);
}

INSTANTIATE_TEST_SUITE_P(Cases, Corpus, ::testing::ValuesIn(corpusCases()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return llvm::sys::path::filename(info.param).str();
                         });

TEST(CorpusList, HasThirteenCases) { EXPECT_EQ(corpusCases().size(), 13u); }

} // namespace
