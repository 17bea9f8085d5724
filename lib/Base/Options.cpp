//===- Options.cpp - compile targets and options --------------------------===//
#include "kiln/Base/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace kiln {

Expected<Target> Target::parse(StringRef text) {
  auto [kind, arch] = text.split(':');
  auto bad = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "invalid target '" + text + "': " + why +
                                 " (expected cuda:<capability> such as cuda:90, "
                                 "or hip:<arch> such as hip:gfx942)");
  };
  if (arch.empty())
    return bad("missing ':<arch>'");
  if (kind == "cuda") {
    // Canonical digits only, so that one GPU has one name (scopes and the
    // cache key compare names).
    unsigned capability;
    if (arch.getAsInteger(10, capability) || capability < 70 || capability > 129 ||
        arch.front() == '0')
      return bad("the CUDA capability must be a number from 70 to 129");
  } else if (kind == "hip") {
    // gfx + a hex digit string, as LLVM's AMDGPU processors are named
    // (gfx90a, gfx942, gfx1100).
    if (!arch.starts_with("gfx") || arch.size() < 6 || arch.size() > 8 ||
        !llvm::all_of(arch.drop_front(3),
                      [](char c) { return isDigit(c) || (c >= 'a' && c <= 'f'); }))
      return bad("the AMD architecture must look like gfx942");
  } else {
    return bad("unknown target kind '" + kind + "'");
  }
  return Target{kind.str(), arch.str()};
}

StringRef Target::backend() const { return kind == "cuda" ? "nvidia" : "amd"; }

int Target::capability() const {
  int value = 0;
  if (kind != "cuda" || StringRef(arch).getAsInteger(10, value))
    return 0;
  return value;
}

CompileOptions CompileOptions::forTarget(const Target &target) {
  CompileOptions options;
  options.target = target;
  if (target.kind == "hip" && StringRef(target.arch).starts_with("gfx9"))
    options.warpSize = 64;
  return options;
}

std::string CompileOptions::str() const {
  std::string text =
      formatv("target={0} num-warps={1} num-stages={2} num-ctas={3} warp-size={4}",
              target.str(), numWarps, numStages, numCtas, warpSize)
          .str();
  if (!enableFpFusion)
    text += " fp-fusion=off";
  if (!enableReflectFtz)
    text += " reflect-ftz=off";
  if (maxnreg)
    text += " maxnreg=" + std::to_string(*maxnreg);
  if (sched4reg)
    text += " sched4reg=on";
  if (debug)
    text += " debug=on";
  if (minSharedMem)
    text += " min-shared-mem=" + std::to_string(*minSharedMem);
  if (ptxTarget)
    text += " ptx-target=" + ptxTarget->str();
  // Length-prefixed, so that no flag text can pose as another option.
  for (const std::string &flag : ptxasOptions)
    text += " ptxas-option=" + std::to_string(flag.size()) + ":" + flag;
  for (const std::string &flag : llvmOptions)
    text += " llvm-option=" + std::to_string(flag.size()) + ":" + flag;
  for (const auto &[key, value] : pluginOptions)
    text += " " + key + "=" + std::to_string(value.size()) + ":" + value;
  return text;
}

StringRef CompileOptions::pluginOption(StringRef key, StringRef fallback) const {
  auto it = pluginOptions.find(key.str());
  return it == pluginOptions.end() ? fallback : StringRef(it->second);
}

} // namespace kiln
