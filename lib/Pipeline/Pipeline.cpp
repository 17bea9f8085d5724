//===- Pipeline.cpp - listing and fingerprinting pipelines ----------------===//
#include "kiln/Pipeline/Pipeline.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace kiln {

std::string Artifact::serialize() const {
  if (kind != Kind::MLIR)
    return data;
  std::string text;
  raw_string_ostream os(text);
  mlir::ModuleOp op = module.get();
  op.print(os);
  return text;
}

const Stage *Pipeline::findStage(StringRef name) const {
  for (const Stage &stage : stages)
    if (stage.name == name)
      return &stage;
  return nullptr;
}

static StringRef outputName(Artifact::Kind kind) {
  switch (kind) {
  case Artifact::Kind::MLIR:
    return "MLIR";
  case Artifact::Kind::Text:
    return "text";
  case Artifact::Kind::Binary:
    return "binary";
  }
  llvm_unreachable("unknown artifact kind");
}

void Pipeline::print(raw_ostream &os) const {
  os << "pipeline for " << options.target.str() << " (backend " << backend << "; "
     << options.str() << ")\n";
  for (const Stage &stage : stages) {
    os << "stage " << stage.name << " -> " << outputName(stage.output);
    if (stage.override) {
      os << "  [overridden by " << stage.overrideOwner;
      if (!stage.overrideCondition.empty())
        os << " if " << stage.overrideCondition;
      os << "]";
    } else if (!stage.runnable()) {
      os << "  [code generator not implemented yet]";
    }
    os << "\n";
    if (stage.isMLIR && stage.entries.empty())
      os << "  (no passes)\n";
    for (const PassEntry &entry : stage.entries) {
      std::string line = formatv("  {0,-28} {1,-12} {2}", entry.id, entry.owner,
                                 entry.owner == "core" ? "" : entry.placement);
      line = StringRef(line).rtrim().str();
      if (!entry.condition.empty())
        line += " [if " + entry.condition + "]";
      if (!entry.disabledBy.empty()) {
        line += " [disabled by " + entry.disabledBy;
        if (!entry.disabledCondition.empty())
          line += " if " + entry.disabledCondition;
        line += "]";
      }
      os << line << "\n";
    }
  }
}

std::string Pipeline::fingerprint() const {
  std::string text;
  raw_string_ostream os(text);
  os << backend << "\n" << options.str() << "\n";
  for (const Stage &stage : stages) {
    os << "stage " << stage.name << " override=" << stage.overrideOwner << "|"
       << stage.overrideCondition << " codegen=" << static_cast<bool>(stage.codegen)
       << "\n";
    for (const PassEntry &entry : stage.entries)
      os << entry.id << "|" << entry.owner << "|" << entry.placement << "|"
         << entry.condition << "|" << entry.disabledBy << "|" << entry.disabledCondition
         << "\n";
  }
  return text;
}

} // namespace kiln
