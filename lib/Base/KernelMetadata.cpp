//===- KernelMetadata.cpp - the JSON beside a binary ----------------------===//
#include "kiln/Base/KernelMetadata.h"

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
  // As Triton writes them: `target` the GPU the cubin is for, `arch` the
  // one the code was generated for (they differ under Triton's `arch`).
  const Target &gpu = options.assemblyTarget();
  object["target"] = json::Object{{"backend", gpu.kind},
                                  {"arch", gpu.capability()},
                                  {"warp_size", warpSize}};
  object["arch"] = "sm" + std::to_string(options.target.capability());
  object["num_stages"] = options.numStages;
  object["cluster_dims"] = json::Array{numCtas, 1, 1};
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
  Expected<KernelMetadata> m = fromJSON(line, "the kiln.metadata comment");
  if (!m) {
    consumeError(m.takeError());
    return std::nullopt;
  }
  return std::move(*m);
}

Expected<KernelMetadata> KernelMetadata::fromJSON(StringRef text, StringRef where) {
  auto error = [&](const Twine &msg) { return createStringError(where + ": " + msg); };
  Expected<json::Value> root = json::parse(text);
  if (!root)
    return error("malformed JSON: " + toString(root.takeError()));
  const json::Object *o = root->getAsObject();
  if (!o)
    return error("kernel metadata must be a JSON object");
  KernelMetadata m;
  m.numWarps = 4; // Triton's default, for JSON that leaves it out
  if (const json::Value *name = o->get("name")) {
    if (!name->getAsString())
      return error("\"name\" must be a string");
    m.name = name->getAsString()->str();
  }

  // Each integer field: present means an integer from `min` to `max`.
  auto integer = [&](const char *key, auto &field, int64_t min, int64_t max) -> Error {
    const json::Value *v = o->get(key);
    if (!v || v->kind() == json::Value::Null) // Triton writes null for unset options
      return Error::success();
    std::optional<int64_t> i = v->getAsInteger();
    if (!i || *i < min || *i > max)
      return error(Twine("\"") + key + "\" must be an integer from " + Twine(min) + " to " +
                   Twine(max));
    field = static_cast<std::remove_reference_t<decltype(field)>>(*i);
    return Error::success();
  };
  // A block has at most 1024 threads; scratch is bounded so that its total
  // over a grid cannot overflow 64 bits.
  constexpr int64_t kMaxScratch = int64_t(1) << 32;
  if (Error e = integer("num_warps", m.numWarps, 1, 32))
    return std::move(e);
  if (Error e = integer("num_ctas", m.numCtas, 1, 16))
    return std::move(e);
  if (Error e = integer("warp_size", m.warpSize, 32, 64))
    return std::move(e);
  if (Error e = integer("shared", m.shared, 0, int64_t(1) << 31))
    return std::move(e);
  if (Error e = integer("tmem_size", m.tmemSize, 0, int64_t(1) << 31))
    return std::move(e);
  if (Error e = integer("global_scratch_size", m.globalScratchSize, 0, kMaxScratch))
    return std::move(e);
  if (Error e = integer("global_scratch_align", m.globalScratchAlign, 1, 4096))
    return std::move(e);
  if (Error e = integer("profile_scratch_size", m.profileScratchSize, 0, kMaxScratch))
    return std::move(e);
  if (Error e = integer("profile_scratch_align", m.profileScratchAlign, 1, 4096))
    return std::move(e);
  if (Error e = integer("ptx_version", m.ptxVersion, 0, 1000))
    return std::move(e);
  if (const json::Value *descs = o->get("tensordesc_meta")) {
    const json::Array *list = descs->getAsArray();
    if (!list && descs->kind() != json::Value::Null)
      return error("\"tensordesc_meta\" must be a list");
    for (const json::Value &v : list ? *list : json::Array()) {
      const json::Object *d = v.getAsObject();
      auto field = [&](const char *key) -> std::optional<int64_t> {
        return d ? d->getInteger(key) : std::nullopt;
      };
      const json::Array *block = d ? d->getArray("block_size") : nullptr;
      std::optional<int64_t> swizzle = field("swizzle"), size = field("elem_size"),
                             type = field("elem_type");
      if (!swizzle || !size || !type || !block)
        return error("each \"tensordesc_meta\" entry needs integer \"swizzle\", "
                     "\"elem_size\", \"elem_type\" and a \"block_size\" list");
      TensorDescMeta meta;
      meta.swizzle = int(*swizzle);
      meta.elemSize = int(*size);
      meta.elemType = int(*type);
      meta.fp4Padded = d->getBoolean("fp4_padded").value_or(false);
      for (const json::Value &b : *block) {
        std::optional<int64_t> n = b.getAsInteger();
        if (!n)
          return error("\"block_size\" must list integers");
        meta.blockSize.push_back(*n);
      }
      m.tensorDescs.push_back(std::move(meta));
    }
  }
  if (const json::Object *t = o->getObject("target"))
    if (std::optional<int64_t> arch = t->getInteger("arch"))
      m.arch = int(*arch);
  return m;
}

} // namespace kiln
