//===- TritonTypesTest.cpp - tt types and type helpers --------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln::tt;

namespace {

class TritonTypes : public ::testing::Test {
protected:
  TritonTypes() { context.loadDialect<TritonDialect>(); }
  Type parse(llvm::StringRef text) { return parseType(text, &context); }
  std::string str(Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << type;
    return s;
  }
  MLIRContext context;
};

TEST_F(TritonTypes, PointerPrintsAddressSpaceOnlyWhenNotGlobal) {
  Type f32 = Float32Type::get(&context);
  EXPECT_EQ(str(PointerType::get(f32, 1)), "!tt.ptr<f32>");
  EXPECT_EQ(str(PointerType::get(f32, 3)), "!tt.ptr<f32, 3>");
  EXPECT_EQ(parse("!tt.ptr<f32>"), PointerType::get(f32, 1));
  EXPECT_EQ(parse("!tt.ptr<f32, 3>"), PointerType::get(f32, 3));
}

TEST_F(TritonTypes, TensorDescAcceptsBothSpellings) {
  Type full = parse("!tt.tensordesc<tensor<128x64xf16>>");
  Type shorthand = parse("!tt.tensordesc<128x64xf16>");
  ASSERT_TRUE(full);
  EXPECT_EQ(full, shorthand);
  EXPECT_EQ(str(full), "!tt.tensordesc<tensor<128x64xf16>>");
}

TEST_F(TritonTypes, PointeeOfPointerLikeTypes) {
  Type f16 = Float16Type::get(&context);
  auto ptr = PointerType::get(f16, 1);
  auto ptrs = RankedTensorType::get({4, 8}, ptr);
  EXPECT_EQ(getPointeeType(ptr), f16);
  EXPECT_EQ(getPointeeType(ptrs), RankedTensorType::get({4, 8}, f16));
  auto block = RankedTensorType::get({16, 16}, f16);
  EXPECT_EQ(getPointeeType(PointerType::get(block, 1)), block);
  EXPECT_FALSE(getPointeeType(f16));
}

TEST_F(TritonTypes, SameShapeHelpers) {
  Type i32 = IntegerType::get(&context, 32);
  auto tensor = RankedTensorType::get({32}, i32);
  EXPECT_EQ(getI1SameShape(tensor),
            RankedTensorType::get({32}, IntegerType::get(&context, 1)));
  EXPECT_EQ(getI1SameShape(i32), IntegerType::get(&context, 1));
  EXPECT_EQ(getPointerTypeSameShape(tensor),
            RankedTensorType::get({32}, PointerType::get(i32, 1)));
  EXPECT_TRUE(isTensorPointerType(
      PointerType::get(RankedTensorType::get({2, 2}, i32), 1)));
  EXPECT_FALSE(isTensorPointerType(PointerType::get(i32, 1)));
}

TEST_F(TritonTypes, MalformedTypesAreRejected) {
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler silence(&context, [](Diagnostic &) { return success(); });
  EXPECT_FALSE(parse("!tt.ptr<f32"));
  EXPECT_FALSE(parse("!tt.tensordesc<f32>"));
  EXPECT_FALSE(parse("!tt.nosuchtype<f32>"));
}

} // namespace
