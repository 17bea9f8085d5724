//===- KernelMetadata.cpp - the JSON beside a binary ----------------------===//
#include "kiln/Target/KernelMetadata.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kiln {

namespace {

constexpr StringLiteral kCommentTag = "kiln.metadata: ";

json::Array tensorDescMeta(const KernelMetadata &m) {
  json::Array out;
  for (const TensorDescMeta &d : m.tensorDescs)
    out.push_back(json::Object{{"swizzle", d.swizzle},
                               {"elem_size", d.elemSize},
                               {"elem_type", d.elemType},
                               {"block_size", json::Array(d.blockSize)},
                               {"fp4_padded", d.fp4Padded}});
  return out;
}

/// The fields every form shares, under Triton's key names.
json::Object fields(const KernelMetadata &m) {
  return json::Object{
      {"name", m.name},
      {"num_warps", m.numWarps},
      {"num_ctas", m.numCtas},
      {"warp_size", m.warpSize},
      {"shared", m.shared},
      {"tmem_size", m.tmemSize},
      {"global_scratch_size", m.globalScratchSize},
      {"global_scratch_align", m.globalScratchAlign},
      {"profile_scratch_size", m.profileScratchSize},
      {"profile_scratch_align", m.profileScratchAlign},
      {"ptx_version", m.ptxVersion},
      {"tensordesc_meta", tensorDescMeta(m)},
  };
}

std::string print(json::Value value) {
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", value);
  return text;
}

} // namespace

std::string KernelMetadata::toJSON(const CompileOptions &options) const {
  json::Object object = fields(*this);
  int capability = options.target.capability();
  object["target"] = json::Object{{"backend", options.target.kind},
                                  {"arch", capability},
                                  {"warp_size", warpSize}};
  object["arch"] = "sm" + std::to_string(capability);
  object["num_stages"] = options.numStages;
  object["cluster_dims"] = json::Array{1, 1, 1};
  object["launch_cooperative_grid"] = false;
  object["launch_pdl"] = false;
  return print(std::move(object)) + "\n";
}

std::string KernelMetadata::toComment(StringRef commentLeader) const {
  std::string text;
  raw_string_ostream os(text);
  os << commentLeader << " " << kCommentTag << json::Value(fields(*this)) << "\n";
  return text;
}

std::optional<KernelMetadata> KernelMetadata::fromComment(StringRef text) {
  // The line is the artifact's first; look no further than its first lines.
  StringRef head = text.take_front(4096);
  size_t at = head.find(kCommentTag);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef line = head.drop_front(at + kCommentTag.size()).take_until([](char c) {
    return c == '\n';
  });
  Expected<json::Value> value = json::parse(line);
  if (!value) {
    consumeError(value.takeError());
    return std::nullopt;
  }
  const json::Object *object = value->getAsObject();
  if (!object)
    return std::nullopt;
  KernelMetadata m;
  auto integer = [&](StringRef key, auto &field) {
    if (std::optional<int64_t> v = object->getInteger(key))
      field = *v;
  };
  if (std::optional<StringRef> name = object->getString("name"))
    m.name = name->str();
  integer("num_warps", m.numWarps);
  integer("num_ctas", m.numCtas);
  integer("warp_size", m.warpSize);
  integer("shared", m.shared);
  integer("tmem_size", m.tmemSize);
  integer("global_scratch_size", m.globalScratchSize);
  integer("global_scratch_align", m.globalScratchAlign);
  integer("profile_scratch_size", m.profileScratchSize);
  integer("profile_scratch_align", m.profileScratchAlign);
  integer("ptx_version", m.ptxVersion);
  if (const json::Array *descs = object->getArray("tensordesc_meta")) {
    for (const json::Value &v : *descs) {
      const json::Object *d = v.getAsObject();
      if (!d)
        return std::nullopt;
      TensorDescMeta meta;
      meta.swizzle = int(d->getInteger("swizzle").value_or(0));
      meta.elemSize = int(d->getInteger("elem_size").value_or(0));
      meta.elemType = int(d->getInteger("elem_type").value_or(0));
      meta.fp4Padded = d->getBoolean("fp4_padded").value_or(false);
      if (const json::Array *block = d->getArray("block_size"))
        for (const json::Value &b : *block)
          meta.blockSize.push_back(b.getAsInteger().value_or(0));
      m.tensorDescs.push_back(std::move(meta));
    }
  }
  if (!m.known())
    return std::nullopt;
  return m;
}

} // namespace kiln
