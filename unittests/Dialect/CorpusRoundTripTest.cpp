//===- CorpusRoundTripTest.cpp - corpus kernels survive print/parse -------===//
//
// For each kernel of test/corpus (its TTIR, and its TTGIR): parse and verify it, print it (with locations), parse the printed
// text again, and require the two modules to be structurally equal, op by
// op, attribute by attribute, location included.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Every corpus kernel's TTIR, and the TTGIR Triton made of those without a
/// tt.dot (dot kernels need the tensor-core encodings kiln lacks so far).
std::vector<std::string> corpusFiles(bool ttgir) {
  std::vector<std::string> files;
  std::error_code ec;
  llvm::SmallString<256> root(KILN_SOURCE_DIR);
  llvm::sys::path::append(root, "test", "corpus");
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::SmallString<256> ttir(it->path()), other(it->path());
    llvm::sys::path::append(ttir, "kernel.ttir");
    llvm::sys::path::append(other, "triton.ttgir");
    auto text = llvm::MemoryBuffer::getFile(ttir);
    if (!text)
      continue;
    // Every kernel has both forms; the dot kernels' TTGIR uses ttng ops.
    files.push_back(std::string(ttgir ? other : ttir));
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*pretty=*/false));
  return text;
}

/// A flat description of an op tree: every op's name, location, attributes,
/// properties, operand numbering (values are numbered in definition order),
/// result types, and every block's argument types. Block argument locations
/// are left out: scf.for's syntax cannot spell them, so a reparse gives them
/// the position in the printed text. Two modules
/// with equal descriptions are structurally equal.
std::vector<std::string> describe(Operation *root) {
  std::vector<std::string> lines;
  llvm::DenseMap<Value, unsigned> numbers;
  auto str = [](auto printable) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << printable;
    return s;
  };
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::string line = op->getName().getStringRef().str() + " @" + str(op->getLoc());
    line += " attrs=" + str(op->getDiscardableAttrDictionary());
    if (Attribute props = op->getPropertiesAsAttribute())
      line += " props=" + str(props);
    for (Value operand : op->getOperands())
      line += " %" + std::to_string(numbers.lookup(operand));
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        line += " ^(";
        for (BlockArgument arg : block.getArguments()) {
          numbers.try_emplace(arg, numbers.size() + 1);
          line += str(arg.getType()) + ",";
        }
        line += ")";
      }
    for (Value result : op->getResults()) {
      numbers.try_emplace(result, numbers.size() + 1);
      line += " -> " + str(result.getType());
    }
    lines.push_back(line);
  });
  return lines;
}

class CorpusRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusRoundTrip, PrintParsePrintIsFixedPoint) {
  MLIRContext context;
  context.loadDialect<kiln::tt::TritonDialect, kiln::ttg::TritonGPUDialect,
                      kiln::ttng::TritonNvidiaGPUDialect>();
  OwningOpRef<ModuleOp> first = parseSourceFile<ModuleOp>(GetParam(), &context);
  ASSERT_TRUE(first) << "failed to parse " << GetParam();
  ASSERT_TRUE(succeeded(verify(*first)));

  std::string text1 = print(*first);
  // Same buffer name, so locations the parser invents for elided syntax
  // (e.g. an implicit scf.yield) name the same file on both sides.
  OwningOpRef<ModuleOp> second = parseSourceString<ModuleOp>(text1, &context, GetParam());
  ASSERT_TRUE(second) << "printed form does not parse:\n" << text1;
  ASSERT_TRUE(succeeded(verify(*second)));

  EXPECT_EQ(text1, print(*second));
  std::vector<std::string> a = describe(*first), b = describe(*second);
  ASSERT_EQ(a.size(), b.size()) << "op counts differ";
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(a[i], b[i]) << "op #" << i << " differs";
  EXPECT_EQ(first->getLoc(), second->getLoc());
}

std::string kernelName(const ::testing::TestParamInfo<std::string> &info) {
  llvm::StringRef dir = llvm::sys::path::parent_path(info.param);
  return llvm::sys::path::filename(dir).str();
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRoundTrip, ::testing::ValuesIn(corpusFiles(false)),
                         kernelName);
INSTANTIATE_TEST_SUITE_P(CorpusTTGIR, CorpusRoundTrip,
                         ::testing::ValuesIn(corpusFiles(true)), kernelName);

TEST(Corpus, HasAllThirteenKernels) { EXPECT_EQ(corpusFiles(false).size(), 13u); }
TEST(Corpus, HasThirteenTTGIRKernels) { EXPECT_EQ(corpusFiles(true).size(), 13u); }

} // namespace
