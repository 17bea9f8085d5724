//===- ParseGuardsTest.cpp - nesting checks before MLIR's and JSON's parsers -===//
#include "kiln/Support/ParseGuards.h"

#include "gtest/gtest.h"

#include <string>

using namespace kiln;

namespace {

std::string check(const std::string &text, unsigned limit = 8) {
  llvm::Error e = checkIRText(text, "k.mlir", limit);
  return e ? llvm::toString(std::move(e)) : "ok";
}

std::string repeat(llvm::StringRef s, unsigned n) {
  std::string r;
  for (unsigned i = 0; i < n; ++i)
    r += s;
  return r;
}

TEST(ParseGuards, CountsEveryKindOfBracket) {
  // Depth 8 is the limit here: 8 levels pass, 9 fail where the 9th opens.
  EXPECT_EQ(check("a = " + repeat("(", 8) + repeat(")", 8)), "ok");
  std::string deep = "x " + repeat("[", 4) + repeat("{", 2) + repeat("<", 2) + "(" + "i32";
  std::string err = check(deep);
  EXPECT_EQ(err.substr(0, 14), "k.mlir:1:11: t") << err;
  EXPECT_NE(err.find("nests deeper than 8 levels"), std::string::npos) << err;
  // Lines and columns count from 1.
  EXPECT_EQ(check("\n\n  " + repeat("{\n", 9)).substr(0, 12), "k.mlir:11:1:");
}

TEST(ParseGuards, ClosedLevelsAreFreedAgain) {
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "%x = tt.splat %c : tensor<4x!tt.ptr<f32>> -> tensor<4x!tt.ptr<f32>>\n";
  EXPECT_EQ(check("module { tt.func @k() {\n" + text + "} }"), "ok");
}

TEST(ParseGuards, IgnoresStringsCommentsAndArrows) {
  std::string noise = repeat("<([{", 10);
  EXPECT_EQ(check("tt.print \"" + noise + "\\\" " + noise + "\" {}"), "ok");
  EXPECT_EQ(check("// " + noise + "\nmodule {}"), "ok");
  // `->` closes nothing and opens nothing.
  EXPECT_EQ(check("(" + repeat("() -> ", 20) + "i32)"), "ok");
  // An unterminated string ends with its line, and the scan recovers.
  EXPECT_NE(check("\"abc\n" + repeat("(", 9)).find("k.mlir:2:9:"), std::string::npos);
}

TEST(ParseGuards, StrayAnglesDoNotAccumulate) {
  // `>=` in an affine set closes nothing; a '<' that was no bracket is
  // dropped when what holds it closes.
  EXPECT_EQ(check("#s = affine_set<(d0) : (" + repeat("d0 >= 0, ", 20) + "d0 >= 0)>"), "ok");
  EXPECT_EQ(check(repeat("(a < b) ", 20)), "ok");
}

TEST(ParseGuards, AffineOperatorsCountAsLevels) {
  // MLIR parses `d0 + d0 + ...` and `- - d0` recursively.
  EXPECT_EQ(check("#m = affine_map<(d0) -> (" + repeat("d0 + ", 6) + "d0)>"), "ok");
  EXPECT_NE(check("#m = affine_map<(d0) -> (" + repeat("d0 + ", 7) + "d0)>"), "ok");
  EXPECT_NE(check("#m = affine_map<(d0) -> (" + repeat("- ", 7) + "d0)>"), "ok");
  // A comma ends the chain; outside affine maps '+' and '-' are no operators.
  EXPECT_EQ(check("#m = affine_map<(d0) -> (" + repeat("d0 + d0, ", 20) + "d0)>"), "ok");
  EXPECT_EQ(check("x = dense<[" + repeat("-1.0e+05, ", 20) + "1]>"), "ok");
  EXPECT_EQ(check("{\n" + repeat("%c = arith.constant -1 : i32\n", 20) + "}"), "ok");
}

TEST(ParseGuards, CountsWhatAliasesHold) {
  // !t2 holds three levels; used two levels deep it reaches five.
  std::string aliases = "!t0 = !tt.ptr<f32>\n!t1 = !tt.ptr<!t0>\n!t2 = !tt.ptr<!t1>\n";
  EXPECT_EQ(check(aliases + "a ((!t2))", 5), "ok");
  EXPECT_EQ(check(aliases + "a (((!t2)))", 5),
            "k.mlir:4:6: the IR nests deeper than 5 levels here, counting what alias '!t2' "
            "holds (kiln's limit: MLIR's parser recurses once per level and would overflow "
            "its stack)");
  // An op's location may name an alias defined later (Triton's output
  // defines most at the end).
  std::string locs = "module {} loc(#l2)\n#l0 = loc(\"a\":1:2)\n"
                     "#l1 = loc(callsite(#l0 at \"b\"))\n#l2 = loc(callsite(#l1 at \"b\"))\n";
  EXPECT_EQ(check(locs, 6), "ok");
  EXPECT_NE(check(locs, 5).find("k.mlir:1:15:"), std::string::npos) << check(locs, 5);
}

TEST(ParseGuards, RefusesDenseArraysOfIndex) {
  std::string err = check("module attributes {tt.x = array<index: 1, 2>} {}", 100);
  EXPECT_NE(err.find("k.mlir:1:27: array<index: ...>"), std::string::npos) << err;
  EXPECT_NE(err.find("upstream bug"), std::string::npos) << err;
  EXPECT_NE(check("x = array < index >"), "ok");
  // Through aliases of index, too.
  EXPECT_NE(check("!i = index\n!j = !i\nx = array<!j: 1>"), "ok");
  EXPECT_EQ(check("!i = index\nx = array<i64: 1> : !i"), "ok");
  EXPECT_EQ(check("!p = !tt.ptr<index>\nx = array<i32: 1>"), "ok");
  EXPECT_EQ(check("x = \"array<index: 1>\" {a = myarray<index>}"), "ok");
}

TEST(ParseGuards, SkipsBytecode) {
  EXPECT_EQ(check(std::string("ML\xEFR") + repeat("(", 100)), "ok");
}

TEST(ParseGuards, BoundsJSONNesting) {
  auto json = [](const std::string &text, unsigned limit) {
    llvm::Error e = checkJSONNesting(text, limit);
    return e ? llvm::toString(std::move(e)) : "ok";
  };
  EXPECT_EQ(json("{\"a\": [[1], [2]], \"b\": {\"c\": []}}", 3), "ok");
  EXPECT_EQ(json("{\"a\": [[[1]]]}", 3),
            "1:9: the JSON nests deeper than 3 levels (kiln's limit: its JSON parser recurses "
            "once per level)");
  EXPECT_EQ(json("{\"a\": \"[[[[{{{{\\\"[[[[\"}", 3), "ok");
  EXPECT_EQ(json("[\n [\n  [\n   [", 3), "4:4: the JSON nests deeper than 3 levels (kiln's "
                                         "limit: its JSON parser recurses once per level)");
}

} // namespace
