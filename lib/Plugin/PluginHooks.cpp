//===- PluginHooks.cpp - checking what each plugin hook contributes -------===//
#include "PluginHooks.h"

#include "kiln/Backend/Registry.h"
#include "kiln/Registration.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace kiln::plugin {

Error Errors::operator()(const Twine &cause) const {
  std::string who = name.empty() ? "plugin file '" + path + "'"
                                 : "plugin '" + name + "' (" + path + ")";
  return createStringError(inconvertibleErrorCode(), who + ": " + cause);
}

// Dialects: no namespace may clash with the host's or another plugin's.
Error collectDialects(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                      const Loaded &loaded, const Errors &fail) {
  auto hook = KILN_CALLBACK(info, registerDialects);
  if (!hook)
    return Error::success();
  hook(out.dialects);
  mlir::DialectRegistry host;
  registerKilnDialects(host);
  StringSet<> taken;
  for (StringRef name : host.getDialectNames())
    taken.insert(name);
  for (StringRef name : loaded.dialects.getDialectNames())
    taken.insert(name);
  // Every registry starts out holding the builtin dialect; that one is not
  // the plugin's.
  mlir::DialectRegistry fresh;
  StringSet<> preset;
  for (StringRef name : fresh.getDialectNames())
    preset.insert(name);
  for (StringRef name : out.dialects.getDialectNames()) {
    if (preset.contains(name))
      continue;
    if (taken.contains(name))
      return fail("dialect '" + name + "' is already registered");
    record.dialects.push_back(name.str());
  }
  return Error::success();
}

// Passes for textual pipelines. kiln's own and MLIR's passes are registered
// first (only now: it costs about a millisecond, which a process without
// plugin passes need not pay), so that no plugin pass can take their names.
Error collectPasses(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                    const Errors &fail) {
  auto hook = KILN_CALLBACK(info, registerPasses);
  if (!hook)
    return Error::success();
  registerKilnPasses();
  hook(out.passes);
  StringSet<> seen;
  for (const PassRegistrar::Factory &create : out.passes.passes()) {
    std::unique_ptr<mlir::Pass> pass = create ? create() : nullptr;
    if (!pass)
      return fail("a registered pass factory returned no pass");
    StringRef arg = pass->getArgument();
    if (!arg.starts_with(record.name + "-"))
      return fail("pass argument '" + arg + "' must start with '" + record.name + "-'");
    if (mlir::PassInfo::lookup(arg) || mlir::PassPipelineInfo::lookup(arg) ||
        !seen.insert(arg).second)
      return fail("a pass named '" + arg + "' is already registered");
    record.passes.push_back(arg.str());
  }
  return Error::success();
}

// Pipeline edits: well-formed, and applicable on every back end.
Error collectEdits(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                   const Loaded &loaded, const Errors &fail) {
  auto hook = KILN_CALLBACK(info, extendPipeline);
  if (!hook)
    return Error::success();
  PipelineEditor editor(record.name, record.path, out.edits);
  hook(editor);
  for (const PipelineEdit &edit : out.edits)
    if (Error error = validateEdit(edit))
      return error;
  std::vector<PipelineEdit> combined = loaded.edits;
  combined.insert(combined.end(), out.edits.begin(), out.edits.end());
  // One target per back end, and every target an edit is restricted to.
  std::vector<Target> targets = representativeTargets();
  for (const PipelineEdit &edit : combined)
    if (!edit.scope.target.empty())
      targets.push_back(cantFail(Target::parse(edit.scope.target)));
  for (const Target &target : targets)
    if (Expected<Pipeline> pipeline = buildPipeline(CompileOptions::forTarget(target), combined);
        !pipeline)
      return pipeline.takeError();
  record.numEdits = out.edits.size();
  return Error::success();
}

// Kernel-language ops.
Error collectOps(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                 const Loaded &loaded, const Errors &fail) {
  auto hook = KILN_CALLBACK(info, registerOps);
  if (!hook)
    return Error::success();
  hook(out.ops);
  auto identifier = [](StringRef text) {
    return !text.empty() && !isDigit(text.front()) &&
           llvm::all_of(text, [](char c) { return isAlnum(c) || c == '_'; });
  };
  // Python reaches ops and value kinds as <plugin>.<name>.
  auto shortName = [&](StringRef full) -> std::optional<StringRef> {
    if (!full.starts_with(record.name + ".") || full.size() == record.name.size() + 1)
      return std::nullopt;
    return full.drop_front(record.name.size() + 1);
  };
  StringSet<> kinds;
  for (const ValueKind &kind : out.ops.valueKinds()) {
    std::optional<StringRef> name = shortName(kind.name);
    if (!name || !identifier(*name))
      return fail("value kind '" + kind.name + "' must be named '" + record.name +
                  ".<name>', the name a Python identifier");
    if (*name == "tensor" || *name == "tensors" || *name == "constexpr" || *name == "descriptor" ||
        !kinds.insert(*name).second)
      return fail("value kind '" + kind.name + "' is declared twice or takes a reserved name");
  }
  StringSet<> seen;
  for (const KernelOp &op : out.ops.all()) {
    std::optional<StringRef> name = shortName(op.name);
    if (!name)
      return fail("op name '" + op.name + "' must be '" + record.name + ".<name>'");
    if (bool(op.build) == bool(op.buildScope))
      return fail("op '" + op.name + "' must have exactly one builder (build, or buildScope for "
                  "a scope)");
    if (op.buildScope &&
        (!op.pythonCall || op.numResults != 0 ||
         llvm::any_of(op.operands, [](const KernelOpOperand &o) { return o.kind != "constexpr"; })))
      return fail("scope '" + op.name + "' must be a pythonCall op without results whose "
                  "operands are all constexprs");
    if (loaded.ops.lookup(op.name) || !seen.insert(op.name).second)
      return fail("an op named '" + op.name + "' is already registered");
    if (op.elementwise && op.pythonCall)
      return fail("op '" + op.name + "' is declared both elementwise and pythonCall");
    if ((op.elementwise || op.pythonCall) && (!identifier(*name) || !identifier(record.name)))
      return fail("op '" + op.name + "' must be named '<plugin>.<name>' with Python "
                  "identifiers (it is called from @triton.jit kernels)");
    StringSet<> operandNames;
    if (llvm::count_if(op.operands, [](const KernelOpOperand &o) { return o.kind == "tensors"; }) > 1)
      return fail("op '" + op.name + "' has more than one operand of kind 'tensors'");
    for (const KernelOpOperand &operand : op.operands) {
      if (!operandNames.insert(operand.name).second)
        return fail("op '" + op.name + "' has two operands named '" + operand.name + "'");
      if (op.pythonCall && !identifier(operand.name))
        return fail("op '" + op.name + "' has operand '" + operand.name +
                    "', not a Python identifier");
      SmallVector<StringRef> alternatives;
      StringRef(operand.kind).split(alternatives, '|');
      bool builtin = operand.kind == "tensor" || operand.kind == "tensors" ||
                     operand.kind == "constexpr" || operand.kind == "descriptor";
      if (!builtin && !llvm::all_of(alternatives,
                                    [&](StringRef k) { return k == "tensor" || kinds.contains(k); }))
        return fail("op '" + op.name + "' operand '" + operand.name + "' has kind '" +
                    operand.kind + "'; expected tensor, tensors, constexpr, descriptor or value "
                    "kinds the plugin declares (alternatives may include tensor)");
      if (operand.kind != "tensor" && (op.elementwise || !op.pythonCall))
        return fail("op '" + op.name + "' operand '" + operand.name +
                    "' has a kind other than tensor, which only pythonCall ops take");
      if (!operand.defaultJson.empty() && operand.kind != "constexpr" && operand.kind != "tensor")
        return fail("op '" + op.name + "' operand '" + operand.name +
                    "' has a default but is neither a constexpr nor a tensor");
      if (!operand.defaultJson.empty()) {
        Expected<json::Value> parsed = json::parse(operand.defaultJson);
        if (!parsed) {
          consumeError(parsed.takeError());
          return fail("op '" + op.name + "' operand '" + operand.name + "' has default '" +
                      operand.defaultJson + "', which is not JSON");
        }
        if (operand.kind == "tensor" && !parsed->getAsNumber() && !parsed->getAsBoolean())
          return fail("op '" + op.name + "' tensor operand '" + operand.name + "' has default '" +
                      operand.defaultJson + "'; a tensor's default is a number or bool");
      }
    }
    if (op.elementwise) {
      if (op.numResults != 1 || op.operands.empty())
        return fail("elementwise op '" + op.name + "' must take operands and have one result");
      static const StringSet<> dtypes = {"int1",  "int8",   "int16",  "int32",  "int64",
                                         "uint8", "uint16", "uint32", "uint64", "fp16",
                                         "bf16",  "fp32",   "fp64"};
      if (!op.resultElement.empty() && !dtypes.contains(op.resultElement))
        return fail("elementwise op '" + op.name + "' has result element '" + op.resultElement +
                    "'; expected a Triton dtype name (int1, int8..int64, uint8..uint64, fp16, "
                    "bf16, fp32, fp64) or empty");
    }
    if (op.pythonCall) {
      if (op.results.size() != op.numResults)
        return fail("op '" + op.name + "' declares " + std::to_string(op.numResults) +
                    " result(s) but describes " + std::to_string(op.results.size()));
      for (const KernelOpResult &result : op.results)
        if (result.kind.empty() || result.shape.empty() || result.dtype.empty() ||
            (identifier(result.kind) && result.kind != "tensor" && !kinds.contains(result.kind)))
          return fail("op '" + op.name + "' has a result of kind '" + result.kind +
                      "' (shape '" + result.shape + "', dtype '" + result.dtype +
                      "'); expected tensor, a value kind the plugin declares or an expression, "
                      "and non-empty shape and dtype expressions");
    }
    record.ops.push_back(op.name);
  }
  for (const ValueKind &kind : out.ops.valueKinds()) {
    if (kind.indexOp.empty())
      continue;
    const KernelOp *index = nullptr;
    for (const KernelOp &op : out.ops.all())
      if (op.name == kind.indexOp)
        index = &op;
    if (!index || !index->pythonCall || index->operands.size() < 2 ||
        index->operands[1].kind != "tensor")
      return fail("value kind '" + kind.name + "' is indexed by '" + kind.indexOp +
                  "', which must be a pythonCall op of the plugin taking the value and an index");
  }
  return Error::success();
}

// Lowering extensions: for a target kind kiln has a back end for.
Error collectLowering(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                      const Errors &fail) {
  auto hook = KILN_CALLBACK(info, registerLowering);
  if (!hook)
    return Error::success();
  hook(out.lowering);
  for (const auto &[kind, extension] : out.lowering.all()) {
    if (!extension)
      return fail("registerLowering added a null lowering extension");
    if (kind.empty())
      continue;
    if (Expected<const Backend *> backend = backendFor(Target{kind, ""}); !backend) {
      consumeError(backend.takeError());
      return fail("registerLowering names target kind '" + kind +
                  "', which no back end compiles (use \"cuda\", \"hip\" or \"\" for every "
                  "target)");
    }
  }
  record.numLoweringExtensions = out.lowering.all().size();
  return Error::success();
}

// Options: a bounded array of well-formed, distinct keys with defaults.
Error collectOptions(const PluginInfo *info, LoadedPlugin &record,
                     function_ref<std::optional<StringRef>(const char *)> readString,
                     function_ref<bool(const void *, size_t)> isReadable, const Errors &fail) {
  if (offsetof(PluginInfo, numOptions) + sizeof(info->numOptions) > info->structSize)
    return Error::success();
  constexpr uint32_t kMaxOptions = 256;
  if (info->numOptions == 0)
    return Error::success();
  if (!info->options)
    return fail("PluginInfo declares " + Twine(info->numOptions) + " options but none");
  if (info->numOptions > kMaxOptions)
    return fail("PluginInfo declares " + Twine(info->numOptions) + " options, more than " +
                Twine(kMaxOptions));
  if (!isReadable(info->options, info->numOptions * sizeof(PluginOption)))
    return fail("PluginInfo's options array runs past the library's loaded data");
  StringSet<> seen;
  for (uint32_t i = 0; i < info->numOptions; ++i) {
    const PluginOption &option = info->options[i];
    std::optional<StringRef> key = option.key ? readString(option.key) : std::nullopt;
    std::optional<StringRef> value =
        option.defaultValue ? readString(option.defaultValue) : std::nullopt;
    std::optional<StringRef> help = option.help ? readString(option.help) : StringRef();
    if (!key || !value || !help)
      return fail("option " + Twine(i) + " needs a key and a default value (strings of the "
                  "library; the default may be empty)");
    bool wellFormed = !key->empty() && isLower(key->front()) &&
                      all_of(*key, [](char c) {
                        return isLower(c) || isDigit(c) || c == '_' || c == '-';
                      });
    if (!wellFormed)
      return fail("invalid option key '" + *key +
                  "' (use lower-case letters, digits, '-' and '_', starting with a letter)");
    if (!seen.insert(*key).second)
      return fail("option '" + *key + "' is declared twice");
    record.options.push_back({key->str(), value->str(), help->str()});
  }
  return Error::success();
}

} // namespace kiln::plugin
