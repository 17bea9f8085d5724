//===- PassTable.cpp - the core passes of every back end, as a table ------===//
#include "kiln/Driver/PassTable.h"

#include "kiln/Backend/Registry.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace kiln {

namespace {

struct Row {
  std::string stage, flag, summary;
  std::vector<std::string> targets;
};

/// Markdown table cells hold no '|' and no line break.
std::string cell(StringRef text) {
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

} // namespace

Error writePassTable(raw_ostream &os) {
  StringMap<Row> rows;
  // The ids in pipeline order: an id first seen in a later target goes
  // right after the entry before it there.
  std::vector<std::string> order;
  std::vector<std::string> allTargets;
  for (const Backend *backend : backends()) {
    for (const Target &target : backend->documentedTargets()) {
      CompileOptions options = CompileOptions::forTarget(target);
      Expected<std::vector<Stage>> stages = coreStages(options);
      if (!stages)
        return stages.takeError();
      allTargets.push_back(target.str());
      std::string previous;
      for (const Stage &stage : *stages)
        for (const PassEntry &entry : stage.entries) {
          if (!rows.count(entry.id)) {
            auto after = previous.empty() ? order.begin()
                                          : std::next(llvm::find(order, previous));
            order.insert(after, entry.id);
          }
          previous = entry.id;
          Row &row = rows[entry.id];
          if (row.stage.empty()) {
            std::unique_ptr<mlir::Pass> pass = entry.create(options);
            row.stage = stage.name;
            row.flag = pass ? ("--" + pass->getArgument()).str() : "";
            row.summary = pass ? pass->getDescription().str() : "";
          }
          row.targets.push_back(target.str());
        }
    }
  }
  os << "| Id | Stage | `kiln-opt` flag | Summary | Targets |\n";
  os << "|---|---|---|---|---|\n";
  for (const std::string &id : order) {
    const Row &row = rows.find(id)->second;
    std::string where = row.targets.size() == allTargets.size()
                            ? std::string("all")
                            : join(row.targets, ", ");
    os << "| `" << id << "` | " << row.stage << " | `" << row.flag << "` | "
       << cell(row.summary) << " | " << where << " |\n";
  }
  return Error::success();
}

} // namespace kiln
