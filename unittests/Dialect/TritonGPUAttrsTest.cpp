//===- TritonGPUAttrsTest.cpp - what lowerings ask of ttg encodings -------===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln::ttg;

namespace {

class TritonGPUAttrs : public ::testing::Test {
protected:
  TritonGPUAttrs() { context.loadDialect<TritonGPUDialect>(); }
  template <typename T> T parse(llvm::StringRef text) {
    return llvm::dyn_cast_or_null<T>(parseAttribute(text, &context));
  }
  static std::string str(Attribute attr) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << attr;
    return s;
  }
  using Bases = SmallVector<SmallVector<int32_t>>;
  MLIRContext context;
};

TEST_F(TritonGPUAttrs, BlockedCountsAndDefaultCGA) {
  auto blocked = BlockedEncodingAttr::get(&context, {1, 4}, {8, 4}, {2, 2}, {1, 0});
  auto layout = cast<DistributedEncodingInterface>(blocked);
  EXPECT_EQ(layout.getRank(), 2u);
  EXPECT_EQ(layout.getNumLanes(), 32u);
  EXPECT_EQ(layout.getNumWarps(), 4u);
  EXPECT_EQ(layout.getNumCTAs(), 1u);
  EXPECT_TRUE(layout.getCGABases().empty());
  EXPECT_EQ(str(blocked), "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                          "warpsPerCTA = [2, 2], order = [1, 0]}>");
}

TEST_F(TritonGPUAttrs, CGALayoutIsUnflattened) {
  auto blocked = parse<BlockedEncodingAttr>(
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], "
      "order = [1, 0], CGALayout = [[0, 1], [1, 0]]}>");
  ASSERT_TRUE(blocked);
  EXPECT_EQ(blocked.getCgaLayout(), ArrayRef<int32_t>({0, 1, 1, 0}));
  EXPECT_EQ(blocked.getCGABases(), (Bases{{0, 1}, {1, 0}}));
  EXPECT_EQ(blocked.getNumCTAs(), 4u);
}

TEST_F(TritonGPUAttrs, SliceTakesItsParentsThreadsAndDropsItsDimension) {
  auto parent = parse<BlockedEncodingAttr>(
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
      "order = [1, 0], CGALayout = [[0, 1]]}>");
  ASSERT_TRUE(parent);
  auto slice = SliceEncodingAttr::get(&context, 1, parent);
  EXPECT_EQ(slice.getRank(), 1u);
  EXPECT_EQ(slice.getNumLanes(), 32u);
  EXPECT_EQ(slice.getNumWarps(), 8u);
  EXPECT_EQ(slice.getCGABases(), (Bases{{0}}));
  EXPECT_EQ(slice.getNumCTAs(), 2u);
}

TEST_F(TritonGPUAttrs, LinearCountsBases) {
  auto linear = parse<LinearEncodingAttr>(
      "#ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "
      "warp = [[8, 0], [16, 0]], block = [[32, 0]]}>");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear.getRank(), 2u);
  EXPECT_EQ(linear.getNumLanes(), 32u);
  EXPECT_EQ(linear.getNumWarps(), 4u);
  EXPECT_EQ(linear.getCGABases(), (Bases{{32, 0}}));
  EXPECT_EQ(unflattenBases(linear.getWarpBases(), linear.getRank()),
            (Bases{{8, 0}, {16, 0}}));
}

TEST_F(TritonGPUAttrs, SharedEncodingsAreNotDistributed) {
  auto shared = SwizzledSharedEncodingAttr::get(&context, 8, 1, 8, {1, 0});
  EXPECT_TRUE(isa<SharedEncodingInterface>(shared));
  EXPECT_FALSE(isa<DistributedEncodingInterface>(shared));
  EXPECT_EQ(cast<LayoutEncodingInterface>(shared).getRank(), 2u);
  auto memdesc = MemDescType::get({2, 32, 16}, Float16Type::get(&context), shared,
                                  SharedMemorySpaceAttr::get(&context), true);
  EXPECT_EQ(memdesc.getAllocShape(), memdesc.getShape());
}

TEST_F(TritonGPUAttrs, ModuleAttributeLookups) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
      tt.func @f() attributes {"ttg.num-warps" = 8 : i32} {
        tt.return
      }
      tt.func @g() {
        tt.return
      }
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  auto funcs = llvm::to_vector(module->getOps<kiln::tt::FuncOp>());
  ASSERT_EQ(funcs.size(), 2u);
  EXPECT_EQ(lookupNumWarps(funcs[0]).value_or(0), 8u);
  EXPECT_EQ(lookupNumWarps(funcs[1]).value_or(0), 4u);
  EXPECT_EQ(lookupThreadsPerWarp(funcs[0]), 32u);
  EXPECT_EQ(lookupNumCTAs(funcs[1]), 2u);
}

} // namespace
