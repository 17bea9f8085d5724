//===- RunSpecFuzzer.cpp - run-spec JSON through parse, launch and check --===//
//
// The input is a run spec's text, optionally followed by `--grid` and
// `--set` values. It is parsed as `kiln run` parses a manifest and its
// options; a spec that parses is then prepared for launch against stub
// kernels with the signatures of the corpus kernels and the interpreter's
// test kernels, and its expectations are compared with the (never run)
// outputs. The disk is never touched: the files a spec names are dropped
// before the launch, and the launch's memory limit is 1 MiB, to keep each
// input fast (kiln run's default is 4 GiB).
//
//===----------------------------------------------------------------------===//
#include "kiln/RunSpec/RunSpec.h"

#include "kiln/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace kiln::interp;

namespace {

constexpr uint64_t kMaxLaunchBytes = uint64_t(1) << 20;

// Bodies are empty: only the signatures matter to prepareLaunch.
constexpr StringLiteral kKernels = R"mlir(
tt.func public @k_add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>, %n: i32) { tt.return }
tt.func public @k_cumsum(%x: !tt.ptr<i32>, %y: !tt.ptr<i32>, %N: i32) { tt.return }
tt.func public @k_dropout_rand(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32, %p: f32, %seed: i32) { tt.return }
tt.func public @k_gather_rows(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %y: !tt.ptr<f32>) { tt.return }
tt.func public @k_histogram_atomic(%x: !tt.ptr<i32>, %hist: !tt.ptr<i32>, %n: i32) { tt.return }
tt.func public @k_cast_int(%x: !tt.ptr<i32>, %y: !tt.ptr<i64>, %f: !tt.ptr<f16>, %n: i32) { tt.return }
tt.func public @k_layernorm(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %b: !tt.ptr<f16>, %mean_out: !tt.ptr<f32>, %rstd_out: !tt.ptr<f32>, %stride: i32, %N: i32, %eps: f32) { tt.return }
tt.func public @k_matmul(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f16>, %M: i32, %N: i32, %K: i32, %sam: i32, %sbk: i32, %scm: i32) { tt.return }
tt.func public @k_matmul_tma_persistent(%a_desc: !tt.tensordesc<tensor<128x64xf16>>, %a_desc_0: i32, %a_desc_1: i32, %a_desc_2: i64, %a_desc_3: i64, %b_desc: !tt.tensordesc<tensor<128x64xf16>>, %b_desc_4: i32, %b_desc_5: i32, %b_desc_6: i64, %b_desc_7: i64, %c_desc: !tt.tensordesc<tensor<128x128xf16>>, %c_desc_8: i32, %c_desc_9: i32, %c_desc_10: i64, %c_desc_11: i64, %M: i32, %N: i32, %K: i32) { tt.return }
tt.func public @k_row_sum_argmax(%x: !tt.ptr<f32>, %sums: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %stride: i32, %N: i32) { tt.return }
tt.func public @k_saxpy_math(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %a: f32, %n: i32) { tt.return }
tt.func public @k_softmax(%out: !tt.ptr<f32>, %inp: !tt.ptr<f32>, %in_stride: i32, %out_stride: i32, %n_cols: i32) { tt.return }
tt.func public @k_transpose(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %M: i32, %N: i32) { tt.return }
tt.func public @check_small(%x: !tt.ptr<i32>) { tt.return }
tt.func public @k(%out: !tt.ptr<i32>) { tt.return }
tt.func public @misaligned(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) { tt.return }
tt.func public @store_at(%x: !tt.ptr<i32>, %off: i32) { tt.return }
tt.func public @accumulate(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) { tt.return }
tt.func public @print(%n: i32) { tt.return }
tt.func public @every_kind(%a: i1, %b: i8, %c: i16, %d: i64, %e: f16, %f: bf16, %g: f64,
                           %h: f8E4M3FN, %i: f8E5M2, %p: !tt.ptr<i1>, %q: !tt.ptr<i8>,
                           %r: !tt.ptr<bf16>, %s: !tt.ptr<f8E4M3FNUZ>, %t: !tt.ptr<f8E5M2FNUZ>,
                           %u: !tt.ptr<f64>, %v: !tt.ptr<i16>, %w: !tt.ptr<i64>) { tt.return }
tt.func public @descriptors(%a: !tt.tensordesc<tensor<4xf32>>, %b: !tt.tensordesc<tensor<2x8xi8>>,
                            %c: !tt.tensordesc<tensor<1x2x4xbf16>>) { tt.return }
)mlir";

// A spec without "kernel" runs the module's only public tt.func.
constexpr StringLiteral kOnlyKernel = R"mlir(
tt.func public @add_one(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) { tt.return }
)mlir";

mlir::ModuleOp parseOrDie(StringRef text, mlir::MLIRContext &context) {
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module)
    std::abort();
  return module.release(); // lives as long as the process
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    kiln::registerKilnDialects(registry);
    return new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
  }();
  static mlir::ModuleOp kernels = parseOrDie(kKernels, *context);
  static mlir::ModuleOp onlyKernel = parseOrDie(kOnlyKernel, *context);

  // After the spec, a line "--" may start the values of command-line
  // options, one a line, as `kiln run` gets them: "grid X,Y,Z" (the last
  // one counts) or "NAME=VALUE" (--set).
  auto [text, options] = StringRef(reinterpret_cast<const char *>(data), size).split("\n--\n");
  Expected<RunSpec> spec = parseRunSpec(text, "spec-dir");
  if (!spec) {
    consumeError(spec.takeError());
    return 0;
  }
  std::string grid;
  std::vector<std::string> sets;
  SmallVector<StringRef> lines;
  options.split(lines, '\n');
  for (StringRef line : lines) {
    if (line.consume_front("grid "))
      grid = line.str();
    else if (!line.empty())
      sets.push_back(line.str());
  }
  if (Error error = applyOverrides(*spec, grid, sets)) {
    consumeError(std::move(error));
    return 0;
  }
  for (ArgSpec &a : spec->args) {
    a.file.clear();
    a.expect.clear();
  }
  Expected<Launch> launch =
      prepareLaunch(*spec, spec->kernel.empty() ? onlyKernel : kernels, kMaxLaunchBytes);
  if (!launch) {
    consumeError(launch.takeError());
    return 0;
  }
  Expected<std::vector<OutputCheck>> checks = checkOutputs(*spec, *launch);
  if (!checks) {
    consumeError(checks.takeError());
    return 0;
  }
  for (const OutputCheck &check : *checks)
    (void)formatCheck(check);
  return 0;
}
