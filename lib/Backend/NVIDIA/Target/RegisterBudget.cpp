//===- RegisterBudget.cpp - one or two CTAs per SM ------------------------===//
#include "kiln/Backend/NVIDIA/RegisterBudget.h"
#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace kiln::nvidia {

namespace {
constexpr StringLiteral kMarker = "// kiln.registers for two CTAs per SM:";
} // namespace

std::string twoCTAsMarker(unsigned launch, unsigned launch2,
                          ArrayRef<std::pair<unsigned, unsigned>> defaults, bool restored) {
  std::string text = (kMarker + " maxnreg " + Twine(launch) + " -> " + Twine(launch2)).str();
  auto rule = [&](StringRef op, unsigned from, unsigned to) {
    text += (", setmaxnreg." + op + " " + Twine(from) + " -> " + Twine(to)).str();
  };
  for (auto [from, to] : defaults)
    rule("inc", from, to);
  if (restored) {
    rule("inc", launch, launch2); // the workers, back to the launch count
    rule("dec", launch, launch2); // the default warps
  }
  return text;
}

std::string chooseRegisterBudget(StringRef ptx, int64_t sharedBytes,
                                 const CompileOptions &options) {
  size_t markerAt = ptx.find(kMarker);
  if (markerAt == StringRef::npos || !twoCTAsFitShared(sharedBytes))
    return ptx.str();
  StringRef marker = ptx.substr(markerAt + kMarker.size()).take_until([](char c) {
    return c == '\n';
  });
  // The rules: `.maxnreg`, then each setmaxnreg the plans differ in. The
  // worker groups' decreases are the same in both.
  SmallVector<StringRef> m;
  if (!Regex("^ maxnreg ([0-9]+) -> ([0-9]+)").match(marker, &m))
    return ptx.str();
  std::string launch = (".maxnreg " + m[1] + "\n").str(), launch2 = (".maxnreg " + m[2] + "\n").str();
  DenseMap<std::pair<char, unsigned>, unsigned> rules;
  Regex rule(", setmaxnreg\\.(inc|dec) ([0-9]+) -> ([0-9]+)");
  for (StringRef rest = marker; rule.match(rest, &m); rest = rest.drop_front(m[0].end() - rest.begin())) {
    unsigned from = 0, to = 0;
    if (!to_integer(m[2], from) || !to_integer(m[3], to))
      return ptx.str();
    rules[{m[1][0], from}] = to;
  }
  std::string variant = ptx.str();
  size_t at = variant.find(launch);
  if (at == std::string::npos)
    return ptx.str();
  variant.replace(at, launch.size(), launch2);
  Regex instruction("setmaxnreg\\.(inc|dec)\\.sync\\.aligned\\.u32 ([0-9]+);");
  std::string out;
  StringRef rest = variant;
  while (instruction.match(rest, &m)) {
    out += rest.take_front(m[0].begin() - rest.begin()).str();
    unsigned value = 0;
    to_integer(m[2], value);
    auto it = rules.find({m[1][0], value});
    out += it == rules.end() ? m[0].str()
                             : ("setmaxnreg." + m[1] + ".sync.aligned.u32 " + Twine(it->second) +
                                ";")
                                   .str();
    rest = rest.drop_front(m[0].end() - rest.begin());
  }
  out += rest.str();
  std::string log;
  Expected<std::string> cubin = assembleCubin(out, options, &log);
  if (!cubin) {
    consumeError(cubin.takeError());
    return ptx.str();
  }
  Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill "
              "loads");
  SmallVector<StringRef> f;
  if (!frame.match(log, &f) || f[1] != "0" || f[2] != "0" || f[3] != "0")
    return ptx.str();
  return out;
}

} // namespace kiln::nvidia
