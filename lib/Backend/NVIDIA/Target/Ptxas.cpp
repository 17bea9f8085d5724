//===- Ptxas.cpp - the cubin stage: PTX through ptxas ---------------------===//
#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <variant>

using namespace llvm;

namespace kiln::nvidia {

namespace {

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      sys::fs::remove(path);
  }
};

Error makeTemp(StringRef suffix, TempFile &file) {
  if (std::error_code ec = sys::fs::createTemporaryFile("kiln", suffix, file.path))
    return fail("cannot create a temporary file: " + ec.message());
  return Error::success();
}

/// Runs `program args...`, its stdout and stderr into one log; returns the
/// exit status (negative when it could not run or died of a signal).
int execute(StringRef program, ArrayRef<StringRef> args, std::string &log) {
  TempFile logFile;
  if (Error err = makeTemp("log", logFile)) {
    log = toString(std::move(err));
    return -1;
  }
  SmallVector<StringRef> argv{program};
  argv.append(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(logFile.path),
                                          StringRef(logFile.path)};
  std::string why;
  int status = sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                   /*SecondsToWait=*/0, /*MemoryLimit=*/0, &why);
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(logFile.path))
    log = (*text)->getBuffer().str();
  if (status < 0 && !why.empty())
    log += why;
  return status;
}

Expected<Ptxas> probe(StringRef path) {
  std::string log;
  if (int status = execute(path, {"--version"}, log))
    return fail("'" + path + "' does not run as ptxas (--version exited with " +
                Twine(status) + ")");
  // "Cuda compilation tools, release 13.0, V13.0.88"
  SmallVector<StringRef> match;
  if (!Regex("release ([0-9]+)\\.([0-9]+)").match(log, &match))
    return fail("'" + path + "' does not report a CUDA release in its --version output");
  Ptxas ptxas;
  ptxas.path = path.str();
  to_integer(match[1], ptxas.cudaMajor);
  to_integer(match[2], ptxas.cudaMinor);
  ptxas.ptxVersion = ptxVersionForCuda(ptxas.cudaMajor, ptxas.cudaMinor);
  if (!ptxas.ptxVersion)
    return fail("'" + path + "' is from CUDA " + Twine(ptxas.cudaMajor) + "." +
                Twine(ptxas.cudaMinor) + ", which kiln does not support (11.0 or newer)");
  return ptxas;
}

} // namespace

int ptxVersionForCuda(int major, int minor) {
  if (major >= 13)
    return 90 + 10 * (major - 13) + minor;
  if (major == 12)
    return minor < 6 ? 80 + minor : 79 + minor;
  if (major == 11)
    return 70 + minor;
  return 0;
}

std::string smArch(const Target &target) {
  int capability = target.capability();
  return "sm_" + std::to_string(capability) + (capability >= 90 ? "a" : "");
}

Expected<Ptxas> findPtxas() {
  // Found once per process: every compile of a run uses the same one. The
  // answer is kept as a value or a message, so every caller gets it whole.
  static const std::variant<Ptxas, std::string> found = []() -> std::variant<Ptxas, std::string> {
    Expected<Ptxas> result = [&]() -> Expected<Ptxas> {
      if (std::optional<std::string> env = sys::Process::GetEnv("TRITON_PTXAS_PATH")) {
        if (!sys::fs::can_execute(*env))
          return fail("TRITON_PTXAS_PATH names '" + *env + "', which is not an executable file");
        return probe(*env);
      }
      SmallVector<std::string> candidates;
      for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
        if (std::optional<std::string> root = sys::Process::GetEnv(var))
          candidates.push_back(*root + "/bin/ptxas");
      candidates.push_back("/usr/local/cuda/bin/ptxas");
      for (const std::string &path : candidates)
        if (sys::fs::can_execute(path))
          return probe(path);
      if (ErrorOr<std::string> onPath = sys::findProgramByName("ptxas"))
        return probe(*onPath);
      return fail("no ptxas found: set TRITON_PTXAS_PATH, or CUDA_HOME to a CUDA install, "
                  "or put ptxas on PATH");
    }();
    if (!result)
      return toString(result.takeError());
    return *result;
  }();
  if (const std::string *message = std::get_if<std::string>(&found))
    return fail(*message);
  return std::get<Ptxas>(found);
}

Expected<std::string> assembleCubin(StringRef ptx, const CompileOptions &options,
                                    std::string *ptxasLog) {
  Expected<Ptxas> ptxas = findPtxas();
  if (!ptxas)
    return ptxas.takeError();
  TempFile input, output;
  if (Error err = makeTemp("ptx", input))
    return std::move(err);
  if (Error err = makeTemp("cubin", output))
    return std::move(err);
  {
    std::error_code ec;
    raw_fd_ostream os(input.path, ec);
    if (ec)
      return fail("cannot write '" + input.path + "': " + ec.message());
    os << ptx;
  }
  // Triton's make_cubin flags: line info, no fused multiply-add when fp
  // fusion is off, -v (register and spill counts in the log), the caller's
  // extra flags, the arch with its `a` suffix.
  std::vector<std::string> flags = {"-lineinfo"};
  if (!options.enableFpFusion)
    flags.push_back("--fmad=false");
  flags.push_back("-v");
  flags.insert(flags.end(), options.ptxasOptions.begin(), options.ptxasOptions.end());
  flags.push_back("--gpu-name=" + smArch(options.assemblyTarget()));
  for (StringRef arg : {input.path.str(), StringRef("-o"), output.path.str()})
    flags.push_back(arg.str());
  std::string log;
  SmallVector<StringRef> args(flags.begin(), flags.end());
  int status = execute(ptxas->path, args, log);
  if (status != 0) {
    // ptxas names the temporary file; the user knows it as the PTX input.
    // The first few errors say enough.
    std::string message;
    unsigned errors = 0;
    for (StringRef line : split(StringRef(log).rtrim(), '\n')) {
      if (!line.contains("error") && !line.contains("fatal"))
        continue;
      if (++errors > 3)
        continue;
      std::string text = line.trim().str();
      size_t at = text.find(input.path.str());
      if (at != std::string::npos)
        text.replace(at, input.path.size(), "<ptx>");
      message += (message.empty() ? "" : "; ") + text;
    }
    if (errors > 3)
      message += "; and " + std::to_string(errors - 3) + " more";
    if (message.empty())
      message = status < 0 ? "it did not run to completion" : "exit status " + std::to_string(status);
    return fail("ptxas (" + ptxas->path + ") rejected the PTX: " + message);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> cubin = MemoryBuffer::getFile(output.path);
  if (!cubin)
    return fail("ptxas wrote no cubin: " + cubin.getError().message());
  if (ptxasLog)
    *ptxasLog = std::move(log);
  return (*cubin)->getBuffer().str();
}

Expected<KernelMetadata> metadataFromForeignPTX(StringRef ptx, const CompileOptions &options,
                                                std::optional<int64_t> shared) {
  KernelMetadata m;
  SmallVector<StringRef> match;
  Regex entry("\\.visible[ \t]+\\.entry[ \t]+([A-Za-z_$][A-Za-z0-9_$]*)");
  if (!entry.match(ptx, &match))
    return fail("the PTX has no kernel (.visible .entry)");
  m.name = match[1].str();
  StringRef rest = ptx.drop_front(match[0].data() - ptx.data() + match[0].size());
  if (entry.match(rest))
    return fail("the PTX has more than one kernel (.visible .entry); kiln compiles one");
  m.warpSize = options.warpSize;
  m.numWarps = options.numWarps;
  if (Regex("\\.reqntid[ \t]+([0-9]+)").match(ptx, &match)) {
    unsigned threads = 0;
    if (!to_integer(match[1], threads) || threads % m.warpSize)
      return fail(".reqntid " + match[1] + " is not a whole number of warps");
    m.numWarps = threads / m.warpSize;
  }
  if (Regex("\\.version[ \t]+([0-9]+)\\.([0-9])").match(ptx, &match)) {
    unsigned major = 0, minor = 0;
    if (!to_integer(match[1], major) || !to_integer(match[2], minor) || major > 99)
      return fail(".version " + match[1] + "." + match[2] + " is no PTX ISA version");
    m.ptxVersion = int(major * 10 + minor);
  }
  if (shared)
    m.shared = *shared;
  else if (ptx.contains(".extern .shared"))
    return fail("the PTX uses dynamic shared memory ('.extern .shared'), whose size is not "
                "in the PTX: give it with --shared BYTES, or compile from an earlier stage");
  return m;
}

} // namespace kiln::nvidia
