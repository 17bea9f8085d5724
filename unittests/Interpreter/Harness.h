//===- Harness.h - run small TTIR kernels from C++ tests ---------*- C++ -*-===//
#ifndef KILN_UNITTESTS_INTERPRETER_HARNESS_H
#define KILN_UNITTESTS_INTERPRETER_HARNESS_H

#include "kiln/Interpreter/Interpreter.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

namespace kiln::interp::testing {

/// A parsed kernel module plus the memory it runs on.
class Harness {
public:
  explicit Harness(llvm::StringRef source) {
    mlir::DialectRegistry registry;
    registerInterpreterDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
  }
  bool parsed() const { return bool(module); }

  template <class T>
  unsigned buffer(const std::string &name, ElemKind kind, const std::vector<T> &init,
                  bool poison = false) {
    unsigned id = memory.addBuffer(name, kind, {int64_t(init.size() * sizeof(T) / byteSize(kind))},
                                   poison);
    if (!poison)
      std::memcpy(memory.buffer(id).bytes.data(), init.data(), init.size() * sizeof(T));
    return id;
  }
  template <class T> std::vector<T> read(unsigned id) {
    const Buffer &b = memory.buffer(id);
    std::vector<T> out(b.bytes.size() / sizeof(T));
    std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
    return out;
  }
  RtValue ptr(unsigned id) { return Tensor::scalarPtr(memory.address(id)); }

  /// Runs `kernel`; returns "" on success, else the error message.
  std::string run(llvm::StringRef kernel, std::vector<RtValue> args,
                  std::array<int64_t, 3> grid = {1, 1, 1}) {
    RunOptions opts;
    opts.grid = grid;
    printed.clear();
    llvm::raw_string_ostream os(printed);
    opts.printStream = &os;
    Interpreter interp(*module);
    llvm::Error e = interp.run(kernel, args, memory, opts);
    os.flush();
    return e ? llvm::toString(std::move(e)) : std::string();
  }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Memory memory;
  std::string printed;
};

inline std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

/// A kernel @k(%a, %b, %c) that loads $N elements of type $A from a and b
/// into %x and %y, runs `body` (which defines %z of element type $R) and
/// stores %z to c.
inline std::string elementwise(const std::string &body, const std::string &a, const std::string &r,
                        int n) {
  std::string s = R"(
module {
  tt.func public @k(%a: !tt.ptr<$A>, %b: !tt.ptr<$A>, %c: !tt.ptr<$R>) {
    %r = tt.make_range {end = $N : i32, start = 0 : i32} : tensor<$Nxi32>
    %ap = tt.splat %a : !tt.ptr<$A> -> tensor<$Nx!tt.ptr<$A>>
    %aa = tt.addptr %ap, %r : tensor<$Nx!tt.ptr<$A>>, tensor<$Nxi32>
    %bp = tt.splat %b : !tt.ptr<$A> -> tensor<$Nx!tt.ptr<$A>>
    %ba = tt.addptr %bp, %r : tensor<$Nx!tt.ptr<$A>>, tensor<$Nxi32>
    %cp = tt.splat %c : !tt.ptr<$R> -> tensor<$Nx!tt.ptr<$R>>
    %ca = tt.addptr %cp, %r : tensor<$Nx!tt.ptr<$R>>, tensor<$Nxi32>
    %x = tt.load %aa : tensor<$Nx!tt.ptr<$A>>
    %y = tt.load %ba : tensor<$Nx!tt.ptr<$A>>
    $BODY
    tt.store %ca, %z : tensor<$Nx!tt.ptr<$R>>
    tt.return
  }
}
)";
  s = replaceAll(s, "$BODY", body);
  s = replaceAll(s, "$A", a);
  s = replaceAll(s, "$R", r);
  return replaceAll(s, "$N", std::to_string(n));
}

inline Tensor i32(int64_t v) { return Tensor::scalarInt(ElemKind::I32, v); }

} // namespace kiln::interp::testing

#endif
