//===- FrontendTestUtil.h - helpers of the frontend tests -------*- C++ -*-===//
//
// What the KernelBuilder and plugin-op tests share: catching diagnostics,
// FileCheck-like checks on printed IR, re-parsing it, and running a built
// kernel on the reference interpreter to check the numbers it computes.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H
#define KILN_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H

#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

namespace kiln::testing {

/// Records every diagnostic of a context (instead of printing it) as
/// "<location>: <message>", errors only in `errors`.
class Diagnostics {
public:
  explicit Diagnostics(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          std::string text;
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag.str();
          all.push_back(text);
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
            errors.push_back(text);
          return mlir::success();
        }) {}

  std::vector<std::string> all, errors;

  /// True when exactly one error was reported and it contains `needle`.
  ::testing::AssertionResult onlyError(llvm::StringRef needle) const {
    if (errors.size() == 1 && llvm::StringRef(errors[0]).contains(needle))
      return ::testing::AssertionSuccess();
    auto failure = ::testing::AssertionFailure();
    failure << "expected one error containing '" << needle.str() << "', got " << errors.size()
            << ":";
    for (const std::string &e : errors)
      failure << "\n  " << e;
    return failure;
  }

private:
  mlir::ScopedDiagnosticHandler handler;
};

inline std::string print(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// FileCheck's CHECK lines, in miniature: each pattern must occur after the
/// end of the previous one's match.
inline ::testing::AssertionResult containsInOrder(llvm::StringRef text,
                                                  const std::vector<std::string> &patterns) {
  size_t at = 0;
  for (const std::string &p : patterns) {
    size_t found = text.find(p, at);
    if (found == llvm::StringRef::npos)
      return ::testing::AssertionFailure() << "no '" << p << "' after offset " << at << " in:\n"
                                           << text.str();
    at = found + p.size();
  }
  return ::testing::AssertionSuccess();
}

inline size_t countOf(llvm::StringRef text, llvm::StringRef pattern) {
  size_t n = 0;
  for (size_t at = text.find(pattern); at != llvm::StringRef::npos;
       at = text.find(pattern, at + pattern.size()))
    ++n;
  return n;
}

/// The printed module parses again, in a fresh context, and verifies: what
/// the builder made is valid TTIR text, not just a valid in-memory module.
inline ::testing::AssertionResult reparses(const std::string &text) {
  std::unique_ptr<mlir::MLIRContext> ctx = KernelBuilder::createContext();
  Diagnostics diags(*ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, mlir::ParserConfig(ctx.get()));
  if (module)
    return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "the printed IR does not parse:";
  for (const std::string &e : diags.all)
    failure << "\n  " << e;
  return failure << "\n" << text;
}

/// Host buffers for a kernel run on the reference interpreter.
class Buffers {
public:
  template <typename T> interp::Tensor add(interp::ElemKind kind, const std::vector<T> &data) {
    unsigned id = memory.addBuffer("buf" + std::to_string(memory.size()), kind,
                                   {static_cast<int64_t>(data.size())}, /*poison=*/false);
    std::memcpy(memory.buffer(id).bytes.data(), data.data(), data.size() * sizeof(T));
    ids.push_back(id);
    return interp::Tensor::scalarPtr(memory.address(id));
  }
  /// The contents of the `index`-th buffer added.
  template <typename T> std::vector<T> read(unsigned index) const {
    const interp::Buffer &buffer = memory.buffer(ids[index]);
    std::vector<T> out(buffer.bytes.size() / sizeof(T));
    std::memcpy(out.data(), buffer.bytes.data(), buffer.bytes.size());
    return out;
  }
  interp::Memory memory;
  std::vector<unsigned> ids;
};

/// Runs kernel `name` of `module` on a grid of `programs` programs (axis 0).
inline ::testing::AssertionResult runKernel(mlir::ModuleOp module, llvm::StringRef name,
                                            llvm::ArrayRef<interp::RtValue> args, Buffers &buffers,
                                            int64_t programs = 1) {
  interp::Interpreter interpreter(module);
  interp::RunOptions options;
  options.grid = {programs, 1, 1};
  if (llvm::Error error = interpreter.run(name, args, buffers.memory, options))
    return ::testing::AssertionFailure()
           << "the interpreter failed: " << llvm::toString(std::move(error));
  return ::testing::AssertionSuccess();
}

} // namespace kiln::testing

#endif
