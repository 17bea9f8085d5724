//===- TestPrintAxisInfo.cpp - the test-print-axis-info pass --------------===//
//
// Reports the axis info of every op result as a remark, so that lit tests
// can check the analysis with -verify-diagnostics.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Analysis/AxisInfo.h"

namespace kiln::ttg {
#define GEN_PASS_DEF_TESTPRINTAXISINFO
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;

namespace {

struct TestPrintAxisInfoPass
    : public kiln::ttg::impl::TestPrintAxisInfoBase<TestPrintAxisInfoPass> {
  void runOnOperation() override {
    kiln::AxisInfoAnalysis analysis(getOperation());
    getOperation().walk([&](kiln::tt::FuncOp func) {
      func.walk([&](Operation *op) {
        for (OpResult result : op->getResults()) {
          std::string text;
          llvm::raw_string_ostream os(text);
          if (result.getResultNumber() > 0)
            os << "#" << result.getResultNumber() << ": ";
          analysis.get(result).print(os);
          op->emitRemark(text);
        }
      });
    });
  }
};

} // namespace
