//===- DebugOps.cpp - tt.print, tt.assert, llvm.intr.assume, inline asm ---===//
#include "Elementwise.h"

#include "llvm/Support/Format.h"

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

void printElement(llvm::raw_ostream &os, const Tensor &t, int64_t i, bool isSigned, bool hex) {
  ElemKind k = t.kind();
  if (k == ElemKind::Ptr) {
    os << llvm::format_hex(t.bitsAt(i), 18);
  } else if (hex) {
    os << llvm::format_hex(t.bitsAt(i), 2 + 2 * t.elemBytes());
  } else if (isFloatKind(k)) {
    os << llvm::format("%.9g", t.floatAt(i));
  } else if (k == ElemKind::I1) {
    os << t.uintAt(i); // booleans print as 0 / 1 whatever isSigned says
  } else if (isSigned) {
    os << t.intAt(i);
  } else {
    os << t.uintAt(i);
  }
}

/// One line per element: "pid (x, y, z) idx (i, j)<prefix><value>", the
/// program id first, as Triton's device_print does (its prefixes carry their
/// own spaces, e.g. " x: ").
LogicalResult execPrint(Exec &ex, Operation *op) {
  auto p = cast<tt::PrintOp>(op);
  llvm::raw_ostream &os = ex.printOut;
  std::string pid = "pid (" + std::to_string(ex.pid[0]) + ", " + std::to_string(ex.pid[1]) +
                    ", " + std::to_string(ex.pid[2]) + ")";
  if (p.getArgs().empty()) {
    os << pid << p.getPrefix() << "\n";
    return success();
  }
  llvm::ArrayRef<int32_t> isSigned = p.getIsSigned();
  unsigned nargs = p.getArgs().size();
  for (auto [k, v] : llvm::enumerate(p.getArgs())) {
    Tensor t = ex.tensor(v);
    bool sgn = k < isSigned.size() ? isSigned[k] != 0 : true;
    for (int64_t i = 0; i < t.numel(); ++i) {
      os << pid;
      if (t.rank() > 0) {
        std::string idx = formatIndex(t.shape(), i);
        os << " idx (" << llvm::StringRef(idx).drop_front().drop_back() << ")";
      }
      os << p.getPrefix();
      if (nargs > 1)
        os << "(operand " << k << ") ";
      printElement(os, t, i, sgn, p.getHex());
      os << "\n";
    }
  }
  os.flush();
  return success();
}

/// A false element stops the run, naming the program and the element.
LogicalResult execAssert(Exec &ex, Operation *op) {
  auto a = cast<tt::AssertOp>(op);
  Tensor c = ex.tensor(a.getCondition());
  for (int64_t i = 0; i < c.numel(); ++i)
    if (!c.data<uint8_t>()[i]) {
      ex.printOut.flush();
      return ex.failAt(op, c.shape(), i, "assertion failed: " + a.getMessage());
    }
  return success();
}

/// llvm.intr.assume (tl.assume): the condition is a promise to the compiler,
/// and a false one is undefined behaviour on the GPU, so the interpreter
/// checks it; operand bundles (alignment hints) are ignored.
LogicalResult execAssume(Exec &ex, Operation *op) {
  Tensor c = ex.tensor(op->getOperand(0));
  for (int64_t i = 0; i < c.numel(); ++i)
    if (!c.data<uint8_t>()[i])
      return ex.failAt(op, c.shape(), i,
                       "the assumed condition is false (undefined behaviour on the GPU)");
  return success();
}

LogicalResult execInlineAsm(Exec &ex, Operation *op) {
  return ex.fail(op, "inline assembly has no CPU semantics, so the interpreter cannot run it");
}

} // namespace

void registerDebugHandlers(HandlerMap &m, MLIRContext *ctx) {
  addHandler<tt::PrintOp>(m, execPrint);
  addHandler<tt::AssertOp>(m, execAssert);
  addHandler<tt::ElementwiseInlineAsmOp>(m, execInlineAsm);
  // By name: the LLVM dialect's headers are heavy, and the op can only occur
  // where the dialect was loaded to parse it.
  if (auto assume = RegisteredOperationName::lookup("llvm.intr.assume", ctx))
    m[assume->getTypeID()] = {execAssume, false};
}

} // namespace kiln::interp::detail
