//===- RunSpec.cpp - run specs: parse, prepare a launch, check outputs ----===//
#include "kiln/RunSpec/RunSpec.h"

#include "kiln/Support/InputFile.h"
#include "kiln/Support/ParseGuards.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>
#include <tuple>

namespace json = llvm::json;

namespace kiln::interp {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

std::string resolvePath(llvm::StringRef dir, llvm::StringRef file) {
  if (file.empty() || llvm::sys::path::is_absolute(file))
    return file.str();
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  // "." in the folder "." is the folder itself, not "" (no file at all).
  return p.empty() ? "." : std::string(p);
}

/// A JSON number, bool, or "inf"/"-inf"/"nan" as a double.
std::optional<double> numberOf(const json::Value &v) {
  if (auto d = v.getAsNumber())
    return *d;
  if (auto b = v.getAsBoolean())
    return *b ? 1.0 : 0.0;
  if (auto s = v.getAsString()) {
    if (*s == "inf" || *s == "+inf")
      return HUGE_VAL;
    if (*s == "-inf")
      return -HUGE_VAL;
    if (*s == "nan")
      return std::nan("");
  }
  return std::nullopt;
}

llvm::Expected<Shape> parseShape(const json::Value *v, llvm::StringRef what) {
  const json::Array *arr = v ? v->getAsArray() : nullptr;
  if (!arr)
    return error(what + " must be an array of sizes");
  Shape s;
  for (const json::Value &e : *arr) {
    std::optional<int64_t> i = e.getAsInteger();
    if (!i || *i < 0)
      return error(what + " must hold non-negative integers");
    s.push_back(*i);
  }
  return s;
}

llvm::Expected<std::vector<double>> parseValues(const json::Array &arr, llvm::StringRef what) {
  std::vector<double> out;
  for (const json::Value &e : arr) {
    std::optional<double> d = numberOf(e);
    if (!d)
      return error(what + " must hold numbers");
    out.push_back(*d);
  }
  return out;
}

std::string formatValue(double v, bool isInt);

/// The dtype as the run spec spells its signedness ("u8" or "i8").
std::string dtypeName(ElemKind kind, bool isUnsigned) {
  if (isUnsigned && isIntKind(kind) && kind != ElemKind::I1)
    return "u" + std::to_string(intBits(kind));
  return kindName(kind).str();
}

/// The inclusive range of an integer dtype: i1 holds 0 and 1, iN is signed,
/// uN unsigned.
std::pair<__int128, __int128> intRange(ElemKind kind, bool isUnsigned) {
  unsigned bits = intBits(kind);
  if (kind == ElemKind::I1)
    return {0, 1};
  if (isUnsigned)
    return {0, (__int128(1) << bits) - 1};
  return {-(__int128(1) << (bits - 1)), (__int128(1) << (bits - 1)) - 1};
}

std::string int128String(__int128 v) {
  if (v < 0)
    return "-" + std::to_string(uint64_t(-v));
  return std::to_string(uint64_t(v));
}

std::string outOfRange(const std::string &value, ElemKind kind, bool isUnsigned) {
  if (isIntKind(kind)) {
    auto [lo, hi] = intRange(kind, isUnsigned);
    return value + " is out of range for " + dtypeName(kind, isUnsigned) + " (" +
           int128String(lo) + " to " + int128String(hi) + ")";
  }
  return value + " is out of range for " + kindName(kind).str() + " (it overflows to " +
         "infinity or NaN)";
}

/// Why `v` cannot be stored as an element of `kind`, or "" if it can.
/// Converting an out-of-range double to an integer is undefined behaviour,
/// so every value is checked before bitsOf converts it.
std::string valueProblem(double v, ElemKind kind, bool isUnsigned) {
  if (isIntKind(kind)) {
    if (!std::isfinite(v) || v != std::trunc(v))
      return formatValue(v, false) + " is not an integer";
    auto [lo, hi] = intRange(kind, isUnsigned);
    // Compared as doubles: hi + 1 is a power of two, so exact.
    if (v < double(lo) || v >= double(hi + 1))
      return outOfRange(formatValue(v, false), kind, isUnsigned);
    return "";
  }
  if (std::isfinite(v) && kind != ElemKind::F64 &&
      !std::isfinite(Tensor::scalarFloat(kind, v).floatAt(0)))
    return outOfRange(formatValue(v, false), kind, isUnsigned);
  return "";
}

llvm::Error checkValues(const std::vector<double> &vals, const ArgSpec &a,
                        const std::string &what) {
  for (size_t i = 0; i < vals.size(); ++i) {
    std::string problem = valueProblem(vals[i], a.dtype, a.isUnsigned);
    if (!problem.empty())
      return error(what + "[" + llvm::Twine(i) + "]: " + problem);
  }
  return llvm::Error::success();
}

/// An integer scalar's exact value: JSON integers above INT64_MAX are kept
/// as uint64 by llvm::json, and a double would round large i64 values.
std::optional<__int128> exactInteger(const json::Value &v) {
  if (auto i = v.getAsInteger())
    return *i;
  if (auto u = v.getAsUINT64())
    return *u;
  if (auto b = v.getAsBoolean())
    return *b ? 1 : 0;
  return std::nullopt;
}

llvm::Expected<ArgSpec> parseArg(const json::Object &o, unsigned index, llvm::StringRef dir) {
  ArgSpec a;
  if (auto n = o.getString("name"))
    a.name = n->str();
  else
    a.name = "arg" + std::to_string(index);
  std::string where = "argument " + std::to_string(index) + " ('" + a.name + "')";
  // A present field of the wrong JSON type would otherwise read as missing.
  for (const char *key : {"name", "kind", "dtype", "role", "file"})
    if (const json::Value *v = o.get(key); v && !v->getAsString())
      return error(where + ": \"" + key + "\" must be a string");
  // The name is also a file name (--output-dir writes <name>.out.bin).
  if (o.get("name") && (a.name.empty() || a.name == "." || a.name == ".." ||
                        llvm::StringRef(a.name).contains('/')))
    return error(where + ": \"name\" must be a non-empty name without '/'");

  std::optional<llvm::StringRef> kind = o.getString("kind");
  if (!kind)
    return error(where + ": missing \"kind\" (buffer, scalar or tensor_descriptor)");
  if (*kind == "buffer")
    a.kind = ArgKind::Buffer;
  else if (*kind == "scalar")
    a.kind = ArgKind::Scalar;
  else if (*kind == "tensor_descriptor")
    a.kind = ArgKind::TensorDescriptor;
  else
    return error(where + ": unknown kind '" + *kind +
                 "' (expected buffer, scalar or tensor_descriptor)");

  std::optional<llvm::StringRef> dtype = o.getString("dtype");
  if (!dtype)
    return error(where + ": missing \"dtype\"");
  std::optional<ElemKind> ek = parseKindName(*dtype);
  if (!ek)
    return error(where + ": unknown dtype '" + *dtype +
                 "' (expected i1, i8, i16, i32, i64, u8..u64, f16, bf16, f32, f64, "
                 "f8e4m3fn, f8e5m2, f8e4m3fnuz or f8e5m2fnuz)");
  a.dtype = *ek;
  a.isUnsigned = dtype->starts_with("u");

  // A field meant for another kind of argument would be ignored silently.
  if (a.kind == ArgKind::Scalar) {
    for (const char *key :
         {"shape", "block", "role", "file", "data", "fill", "expect", "tolerance"})
      if (o.get(key))
        return error(where + ": a scalar takes a \"value\", not \"" + key + "\"");
  } else if (o.get("value")) {
    return error(where + ": \"value\" is for scalars; a " + *kind +
                 " takes \"file\", \"data\" or \"fill\"");
  } else if (a.kind == ArgKind::Buffer && o.get("block")) {
    return error(where + ": \"block\" is for tensor descriptors, not buffers");
  }

  if (a.kind == ArgKind::Scalar) {
    const json::Value *v = o.get("value");
    std::optional<double> d = v ? numberOf(*v) : std::nullopt;
    if (!d)
      return error(where + ": a scalar needs a numeric \"value\"");
    a.floatValue = *d;
    if (isIntKind(a.dtype)) {
      std::optional<__int128> i = exactInteger(*v);
      if (!i) {
        // A double: integral but beyond 64 bits (1e30), or not integral.
        if (*d != std::trunc(*d) || !std::isfinite(*d))
          return error(where + ": the value of an integer scalar must be an integer");
        return error(where + ": \"value\": " +
                     outOfRange(formatValue(*d, false), a.dtype, a.isUnsigned));
      }
      auto [lo, hi] = intRange(a.dtype, a.isUnsigned);
      if (*i < lo || *i > hi)
        return error(where + ": \"value\": " +
                     outOfRange(int128String(*i), a.dtype, a.isUnsigned));
      a.intValue = int64_t(uint64_t(*i)); // u64 above INT64_MAX keeps its bits
    } else if (std::string p = valueProblem(*d, a.dtype, a.isUnsigned); !p.empty()) {
      return error(where + ": \"value\": " + p);
    }
    return a;
  }

  auto shape = parseShape(o.get("shape"), where + ": \"shape\"");
  if (!shape)
    return shape.takeError();
  a.shape = *shape;
  if (a.kind == ArgKind::TensorDescriptor) {
    if (o.get("block")) {
      auto block = parseShape(o.get("block"), where + ": \"block\"");
      if (!block)
        return block.takeError();
      a.block = *block;
    }
    if (a.shape.empty())
      return error(where + ": a tensor descriptor needs a non-empty shape");
  }

  std::optional<llvm::StringRef> role = o.getString("role");
  if (!role || *role == "input")
    a.role = Role::Input;
  else if (*role == "output")
    a.role = Role::Output;
  else if (*role == "inout")
    a.role = Role::InOut;
  else
    return error(where + ": unknown role '" + *role + "' (expected input, output or inout)");

  // Host memory holds every buffer, and each must fit its 2^40-byte window.
  int64_t count = 1, bytes;
  for (int64_t d : a.shape)
    if (__builtin_mul_overflow(count, d, &count))
      count = INT64_MAX;
  if (llvm::is_contained(a.shape, 0))
    count = 0; // saturation above must not survive a later zero dimension
  if (__builtin_mul_overflow(count, int64_t(byteSize(a.dtype)), &bytes) ||
      bytes > (int64_t(1) << 36))
    return error(where + ": the buffer is too large for the interpreter (over 64 GiB)");
  if (auto f = o.getString("file")) {
    if (f->empty())
      return error(where + ": \"file\" must name a file");
    a.file = resolvePath(dir, *f);
  }
  if (const json::Value *dv = o.get("data")) {
    const json::Array *d = dv->getAsArray();
    if (!d)
      return error(where + ": \"data\" must be an array of values");
    auto vals = parseValues(*d, where + ": \"data\"");
    if (!vals)
      return vals.takeError();
    if (int64_t(vals->size()) != count)
      return error(where + ": \"data\" has " + llvm::Twine(vals->size()) +
                   " values but the shape holds " + llvm::Twine(count));
    if (llvm::Error e = checkValues(*vals, a, where + ": \"data\""))
      return std::move(e);
    a.data = std::move(*vals);
  }
  if (const json::Value *f = o.get("fill")) {
    std::optional<double> d = numberOf(*f);
    if (!d)
      return error(where + ": \"fill\" must be a number");
    if (std::string p = valueProblem(*d, a.dtype, a.isUnsigned); !p.empty())
      return error(where + ": \"fill\": " + p);
    a.fill = *d;
  }
  if (int(!a.file.empty()) + int(a.data.has_value()) + int(a.fill.has_value()) > 1)
    return error(where + ": give at most one of \"file\", \"data\" and \"fill\"");
  if (a.role == Role::InOut && a.file.empty() && !a.data && !a.fill)
    return error(where + ": an inout buffer needs its initial contents (\"file\", \"data\" or "
                         "\"fill\")");
  if (const json::Value *e = o.get("expect")) {
    if (auto s = e->getAsString()) {
      if (s->empty())
        return error(where + ": \"expect\" must name a file or hold values");
      a.expect = resolvePath(dir, *s);
    } else if (const json::Array *arr = e->getAsArray()) {
      auto vals = parseValues(*arr, where + ": \"expect\"");
      if (!vals)
        return vals.takeError();
      if (int64_t(vals->size()) != count)
        return error(where + ": \"expect\" has " + llvm::Twine(vals->size()) +
                     " values but the shape holds " + llvm::Twine(count));
      if (llvm::Error e = checkValues(*vals, a, where + ": \"expect\""))
        return std::move(e);
      a.expectData = std::move(*vals);
    } else {
      return error(where + ": \"expect\" must be a file name or an array of values");
    }
  }
  if (const json::Value *tv = o.get("tolerance")) {
    const json::Object *t = tv->getAsObject();
    if (!t)
      return error(where + ": \"tolerance\" must be an object with \"rtol\" and/or \"atol\"");
    for (auto [key, field] : {std::pair{"rtol", &a.tolerance.rtol},
                              std::pair{"atol", &a.tolerance.atol}}) {
      if (const json::Value *v = t->get(key)) {
        std::optional<double> d = v->getAsNumber();
        if (!d || *d < 0 || std::isnan(*d))
          return error(where + ": tolerance " + key + " must be a non-negative number");
        *field = *d;
      }
    }
  }
  return a;
}

std::string formatValue(double v, bool isInt) {
  if (std::isnan(v))
    return "nan";
  if (isInt)
    return std::to_string(int64_t(v));
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.9g", v);
  return s;
}

/// The raw bit pattern of `v` as an element of `kind`. parseArg has checked
/// spec values already; this checks again for specs built in code.
llvm::Expected<uint64_t> bitsOf(double v, ElemKind kind, bool isUnsigned,
                                const llvm::Twine &where) {
  if (std::string p = valueProblem(v, kind, isUnsigned); !p.empty())
    return error(where + ": " + p);
  if (isIntKind(kind))
    return v < 0 ? uint64_t(int64_t(v)) : uint64_t(v);
  return Tensor::scalarFloat(kind, v).bitsAt(0);
}

llvm::Error fillFromValues(Buffer &b, const std::vector<double> &vals, bool isUnsigned,
                           llvm::StringRef where) {
  unsigned size = byteSize(b.elem);
  for (size_t i = 0; i < vals.size(); ++i) {
    auto bits = bitsOf(vals[i], b.elem, isUnsigned, where + "[" + llvm::Twine(i) + "]");
    if (!bits)
      return bits.takeError();
    std::memcpy(&b.bytes[i * size], &*bits, size);
  }
  return llvm::Error::success();
}

/// Reads a data file straight into `out` (no second copy of a large file).
llvm::Error readDataFile(const ArgSpec &a, const std::string &path, const char *what,
                         llvm::MutableArrayRef<uint8_t> out) {
  if (llvm::Error e = readInputFileInto(path, out, what))
    return error("argument '" + a.name + "': " + llvm::toString(std::move(e)));
  return llvm::Error::success();
}

llvm::Error initBuffer(Buffer &b, const ArgSpec &a) {
  if (a.role == Role::Output)
    return llvm::Error::success(); // poisoned
  if (!a.file.empty())
    return readDataFile(a, a.file, "input file", b.bytes);
  if (a.data)
    return fillFromValues(b, *a.data, a.isUnsigned, "argument '" + a.name + "': \"data\"");
  if (a.fill) {
    auto bits = bitsOf(*a.fill, b.elem, a.isUnsigned, "argument '" + a.name + "': \"fill\"");
    if (!bits)
      return bits.takeError();
    unsigned size = byteSize(b.elem);
    for (size_t i = 0; i < b.bytes.size(); i += size)
      std::memcpy(&b.bytes[i], &*bits, size);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<RunSpec> parseRunSpec(llvm::StringRef text, llvm::StringRef dir) {
  // llvm::json's parser recurses per level: bound the depth first.
  if (llvm::Error e = checkJSONNesting(text))
    return std::move(e);
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root)
    return error("malformed JSON: " + llvm::toString(root.takeError()));
  const json::Object *o = root->getAsObject();
  if (!o)
    return error("the run spec must be a JSON object");
  RunSpec spec;
  spec.dir = dir.str();
  for (const char *key : {"name", "kernel"})
    if (const json::Value *v = o->get(key); v && (!v->getAsString() || v->getAsString()->empty()))
      return error(llvm::Twine("\"") + key + "\" must be a non-empty string" +
                   (llvm::StringRef(key) == "kernel" ? " (the tt.func to run)" : ""));
  spec.name = o->getString("name").value_or("").str();
  spec.kernel = o->getString("kernel").value_or("").str();
  if (const json::Value *t = o->get("ttir"); t && (!t->getAsString() || t->getAsString()->empty()))
    return error("\"ttir\" must be the kernel file's name");
  spec.ttir = resolvePath(dir, o->getString("ttir").value_or("kernel.ttir"));
  if (const json::Value *g = o->get("grid")) {
    const json::Array *arr = g->getAsArray();
    if (!arr || arr->empty() || arr->size() > 3)
      return error("\"grid\" must be an array of 1 to 3 sizes");
    for (size_t i = 0; i < arr->size(); ++i) {
      std::optional<int64_t> v = (*arr)[i].getAsInteger();
      if (!v || *v < 0)
        return error("\"grid\" sizes must be non-negative integers");
      if (std::string p = gridSizeProblem(i, *v); !p.empty())
        return error("\"grid\": " + p);
      spec.grid[i] = *v;
    }
  }
  for (auto [key, field, max] : {std::tuple{"num_warps", &spec.numWarps, 32},
                                 std::tuple{"num_stages", &spec.numStages, 16},
                                 std::tuple{"num_ctas", &spec.numCtas, 16}}) {
    if (const json::Value *v = o->get(key)) {
      std::optional<int64_t> i = v->getAsInteger();
      if (!i || *i < 1 || *i > max)
        return error(llvm::Twine("\"") + key + "\" must be an integer from 1 to " +
                     llvm::Twine(max));
      *field = int(*i);
    }
  }
  if (spec.numCtas & (spec.numCtas - 1))
    return error("\"num_ctas\" must be 1, 2, 4, 8 or 16");
  if (!o->get("args"))
    return error("missing \"args\" (the kernel's arguments, in order)");
  const json::Array *args = o->getArray("args");
  if (!args)
    return error("\"args\" must be an array (the kernel's arguments, in order)");
  for (size_t i = 0; i < args->size(); ++i) {
    const json::Object *ao = (*args)[i].getAsObject();
    if (!ao)
      return error("argument " + llvm::Twine(i) + " must be a JSON object");
    auto a = parseArg(*ao, i, dir);
    if (!a)
      return a.takeError();
    // --set, outputs and error messages find arguments by name.
    for (size_t j = 0; j < spec.args.size(); ++j)
      if (spec.args[j].name == a->name)
        return error("argument " + llvm::Twine(i) + ": the name '" + a->name +
                     "' is already used by argument " + llvm::Twine(j));
    spec.args.push_back(std::move(*a));
  }
  return spec;
}

llvm::Expected<RunSpec> loadRunSpec(llvm::StringRef caseDirOrFile) {
  llvm::SmallString<256> path(caseDirOrFile);
  if (llvm::sys::fs::is_directory(path))
    llvm::sys::path::append(path, "manifest.json");
  auto mb = readInputFile(path, "run spec");
  if (!mb)
    return mb.takeError();
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  auto spec = parseRunSpec((*mb)->getBuffer(), dir);
  if (!spec)
    return error(path + ": " + llvm::toString(spec.takeError()));
  spec->path = std::string(path);
  // Files the spec names are checked now, so a bad spec fails before a run
  // that may take long, with the spec named: each must be a regular file
  // (not a folder or /dev/zero) of the size its shape says.
  auto specError = [&](llvm::Error e) { return error(path + ": " + llvm::toString(std::move(e))); };
  if (auto size = regularFileSize(spec->ttir, "kernel file"); !size)
    return specError(size.takeError());
  for (const ArgSpec &a : spec->args) {
    for (auto [file, what] : {std::pair{&a.file, "input file"}, std::pair{&a.expect, "\"expect\" file"}}) {
      if (file->empty())
        continue;
      auto size = regularFileSize(*file, what);
      if (!size)
        return specError(error("argument '" + a.name + "': " + llvm::toString(size.takeError())));
      int64_t want = numElements(a.shape) * int64_t(byteSize(a.dtype));
      if (int64_t(*size) != want)
        return specError(error("argument '" + a.name + "': " + what + " '" + *file + "' has " +
                               llvm::Twine(*size) + " bytes, but " +
                               llvm::Twine(numElements(a.shape)) + " elements of " +
                               kindName(a.dtype) + " need " + llvm::Twine(want)));
    }
  }
  if (spec->name.empty())
    spec->name = llvm::sys::fs::is_directory(caseDirOrFile)
                     ? llvm::sys::path::filename(llvm::StringRef(caseDirOrFile).rtrim('/')).str()
                     : llvm::sys::path::stem(path).str();
  return spec;
}

llvm::Error setScalar(RunSpec &spec, llvm::StringRef name, llvm::StringRef value) {
  for (ArgSpec &a : spec.args) {
    if (a.name != name)
      continue;
    if (a.kind != ArgKind::Scalar)
      return error("--set " + name + ": '" + name + "' is not a scalar argument");
    if (isIntKind(a.dtype)) {
      int64_t v;
      if (value.getAsInteger(0, v)) {
        uint64_t u; // u64 values above INT64_MAX
        if (value.getAsInteger(0, u))
          return error("--set " + name + ": '" + value + "' is not an integer");
        v = int64_t(u);
        if (!a.isUnsigned || a.dtype != ElemKind::I64)
          return error("--set " + name + ": " + outOfRange(value.str(), a.dtype, a.isUnsigned));
      } else {
        auto [lo, hi] = intRange(a.dtype, a.isUnsigned);
        if (v < lo || v > hi)
          return error("--set " + name + ": " + outOfRange(value.str(), a.dtype, a.isUnsigned));
      }
      a.intValue = v;
      a.floatValue = double(v);
    } else {
      double d;
      if (value.getAsDouble(d))
        return error("--set " + name + ": '" + value + "' is not a number");
      if (std::string p = valueProblem(d, a.dtype, a.isUnsigned); !p.empty())
        return error("--set " + name + ": " + p);
      a.floatValue = d;
    }
    return llvm::Error::success();
  }
  return error("--set: the run spec has no argument named '" + name + "'");
}

llvm::Error setGrid(RunSpec &spec, llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return error("--grid takes X[,Y[,Z]]");
  std::array<int64_t, 3> g{1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, g[i]) || g[i] < 0)
      return error("--grid: '" + parts[i] + "' is not a non-negative integer");
  for (unsigned i = 0; i < 3; ++i)
    if (std::string p = gridSizeProblem(i, g[i]); !p.empty())
      return error("--grid: " + p);
  spec.grid = g;
  return llvm::Error::success();
}

llvm::Error applyOverrides(RunSpec &spec, llvm::StringRef grid,
                           llvm::ArrayRef<std::string> scalarSets) {
  if (!grid.empty())
    if (llvm::Error e = setGrid(spec, grid))
      return e;
  for (llvm::StringRef s : scalarSets) {
    auto [name, value] = s.split('=');
    if (!s.contains('='))
      return error("--set takes NAME=VALUE, got '" + s + "'");
    if (llvm::Error e = setScalar(spec, name, value))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error checkHostMemory(const RunSpec &spec, uint64_t memoryLimit) {
  // Host memory: each buffer, its written-tracking (a byte per byte) when it
  // is an output, and the two copies checkOutputs compares.
  uint64_t total = 0, largest = 0;
  const ArgSpec *largestArg = nullptr;
  for (const ArgSpec &a : spec.args) {
    if (a.kind == ArgKind::Scalar)
      continue;
    uint64_t bytes = uint64_t(numElements(a.shape)) * byteSize(a.dtype);
    uint64_t host = bytes * (1 + (a.role == Role::Output) + 2 * a.hasExpectation());
    total += host;
    if (host >= largest) {
      largest = host;
      largestArg = &a;
    }
  }
  if (total > memoryLimit)
    return error("the run needs " + formatByteSize(total) +
                 " of host memory for its buffers, more than the limit of " +
                 formatByteSize(memoryLimit) + " (kiln run --memory-limit); the largest is '" +
                 largestArg->name + "' with " + formatByteSize(largest));
  return llvm::Error::success();
}

llvm::Expected<Launch> prepareBuffers(const RunSpec &spec, uint64_t memoryLimit) {
  if (llvm::Error e = checkHostMemory(spec, memoryLimit))
    return std::move(e);
  Launch launch;
  launch.kernel = spec.kernel;
  for (const ArgSpec &a : spec.args) {
    if (a.kind == ArgKind::Scalar) {
      launch.bufferOfArg.push_back(-1);
      continue;
    }
    unsigned id = launch.memory.addBuffer(a.name, a.dtype, a.shape, a.role == Role::Output);
    if (llvm::Error e = initBuffer(launch.memory.buffer(id), a))
      return std::move(e);
    launch.bufferOfArg.push_back(int(id));
  }
  return launch;
}

llvm::Expected<std::vector<OutputCheck>> checkOutputs(const RunSpec &spec, const Launch &launch) {
  std::vector<OutputCheck> checks;
  for (size_t s = 0; s < spec.args.size(); ++s) {
    const ArgSpec &a = spec.args[s];
    if (!a.hasExpectation() || launch.bufferOfArg[s] < 0)
      continue;
    const Buffer &buf = launch.memory.buffer(launch.bufferOfArg[s]);
    unsigned esz = byteSize(a.dtype);
    int64_t n = buf.numel();
    Tensor got = Tensor::alloc(a.dtype, {n}), want = Tensor::alloc(a.dtype, {n});
    std::memcpy(got.rawMut(), buf.bytes.data(), buf.bytes.size());
    if (!a.expect.empty()) {
      if (llvm::Error e = readDataFile(a, a.expect, "\"expect\" file",
                                       {want.rawMut(), buf.bytes.size()}))
        return std::move(e);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        auto bits = bitsOf((*a.expectData)[i], a.dtype, a.isUnsigned,
                           "argument '" + a.name + "': \"expect\"[" + llvm::Twine(i) + "]");
        if (!bits)
          return bits.takeError();
        want.setBits(i, *bits);
      }
    }
    OutputCheck c;
    c.name = a.name;
    c.elements = n;
    c.tolerance = a.tolerance;
    c.dtype = a.dtype;
    bool isFloat = isFloatKind(a.dtype);
    for (int64_t i = 0; i < n; ++i) {
      bool unwritten = buf.poisoned() && !launch.memory.isWritten(launch.bufferOfArg[s], i * esz, esz);
      double g, w;
      if (isFloat) {
        g = got.floatAt(i);
        w = want.floatAt(i);
      } else if (a.isUnsigned) {
        g = double(got.uintAt(i));
        w = double(want.uintAt(i));
      } else {
        g = double(got.intAt(i));
        w = double(want.intAt(i));
      }
      double diff;
      bool ok;
      if (std::isnan(g) || std::isnan(w)) {
        ok = std::isnan(g) && std::isnan(w);
        diff = ok ? 0 : std::nan("");
      } else if (g == w) {
        ok = true;
        diff = 0;
      } else if (std::isinf(g) || std::isinf(w)) {
        ok = false; // an infinity only matches itself (as in numpy.isclose)
        diff = HUGE_VAL;
      } else if (!isFloat) {
        bool exact = got.bitsAt(i) == want.bitsAt(i);
        diff = std::fabs(g - w);
        ok = exact || diff <= a.tolerance.atol + a.tolerance.rtol * std::fabs(w);
      } else {
        diff = std::fabs(g - w);
        ok = diff <= a.tolerance.atol + a.tolerance.rtol * std::fabs(w);
      }
      if (unwritten) {
        // Counted on their own; their poison values say nothing about error.
        ok = false;
        diff = 0;
      }
      if (std::isnan(diff))
        c.maxAbsErr = diff; // stays NaN: a NaN where a number was expected
      else if (!std::isnan(c.maxAbsErr) && diff > c.maxAbsErr)
        c.maxAbsErr = diff;
      if (w != 0 && !std::isnan(diff) && !unwritten) {
        double rel = diff / std::fabs(w);
        if (rel > c.maxRelErr)
          c.maxRelErr = rel;
      }
      if (!ok) {
        ++c.mismatches;
        c.unwritten += unwritten;
        if (c.firstMismatch < 0) {
          c.firstMismatch = i;
          c.firstIndex = formatIndex(a.shape, i);
          c.got = unwritten ? "<never written>" : formatValue(g, !isFloat);
          c.want = formatValue(w, !isFloat);
        }
      }
    }
    c.pass = c.mismatches == 0;
    checks.push_back(std::move(c));
  }
  return checks;
}

std::string formatCheck(const OutputCheck &c) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto num = [&](double v) {
    if (std::isnan(v))
      os << "nan";
    else
      os << llvm::format("%.3e", v);
  };
  os << c.name << ": " << (c.pass ? "PASS" : "FAIL") << " max_abs_err=";
  num(c.maxAbsErr);
  os << " max_rel_err=";
  num(c.maxRelErr);
  os << " first_mismatch=";
  if (c.firstMismatch < 0)
    os << "none";
  else
    os << c.firstIndex << " (got " << c.got << ", want " << c.want << ")";
  os << " [" << c.elements << " x " << kindName(c.dtype) << ", atol=" << llvm::format("%g", c.tolerance.atol)
     << " rtol=" << llvm::format("%g", c.tolerance.rtol);
  if (c.mismatches)
    os << ", " << c.mismatches << " mismatching";
  if (c.unwritten)
    os << ", " << c.unwritten << " never written";
  os << "]";
  return s;
}

unsigned printChecks(const RunSpec &spec, llvm::ArrayRef<OutputCheck> checks,
                     llvm::raw_ostream &os) {
  unsigned failed = 0;
  for (const OutputCheck &c : checks) {
    os << "  " << formatCheck(c) << "\n";
    failed += !c.pass;
  }
  if (checks.empty())
    os << spec.name << ": no outputs to check\n";
  else if (failed)
    os << spec.name << ": FAIL (" << failed << " of " << checks.size() << " outputs differ)\n";
  else
    os << spec.name << ": PASS (" << checks.size()
       << (checks.size() == 1 ? " output)\n" : " outputs)\n");
  return failed;
}

llvm::Error writeOutputs(const RunSpec &spec, const Launch &launch, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return error("cannot create '" + dir + "': " + ec.message());
  for (size_t s = 0; s < spec.args.size(); ++s) {
    const ArgSpec &a = spec.args[s];
    if (launch.bufferOfArg[s] < 0 || a.role == Role::Input)
      continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, a.name + ".out.bin");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return error("cannot write '" + path + "': " + ec.message());
    const Buffer &b = launch.memory.buffer(launch.bufferOfArg[s]);
    os.write(reinterpret_cast<const char *>(b.bytes.data()), b.bytes.size());
  }
  return llvm::Error::success();
}

} // namespace kiln::interp
