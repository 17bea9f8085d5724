//===- TargetInfo.cpp - choosing the backend of the LLVM lowering ---------===//
#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"

namespace kiln {

TargetInfo::~TargetInfo() = default;

llvm::Expected<std::unique_ptr<TargetInfo>> createTargetInfo(llvm::StringRef target) {
  llvm::StringRef cc = target;
  unsigned value = 0;
  // "cuda:90", and "cuda:90a" for the arch-specific features of sm_90a.
  if (cc.consume_front("cuda:")) {
    cc.consume_back("a");
    if (!cc.getAsInteger(10, value) && value > 0)
      return createNVIDIATargetInfo(value);
  }
  return llvm::createStringError("the LLVM lowering supports ttg.target = \"cuda:<cc>\" (e.g. "
                                 "\"cuda:90\"), got \"" + target.str() + "\"");
}

} // namespace kiln
