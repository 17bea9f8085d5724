//===- Isolation.cpp - running a compile in a child process ---------------===//
#include "kiln/Support/Isolation.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <new>
#include <typeinfo>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#define KILN_HAVE_FORK 1
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/prctl.h>
#endif

using namespace llvm;

namespace kiln {
namespace {

Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

// The record the child writes and the parent reads once the child is gone.
// It lives in an anonymous shared mapping, so plain stores from the child
// are visible to the parent without any system call per report.
constexpr size_t kTextSize = 480;
constexpr unsigned kSlots = 32; // threads beyond this share the last slot

struct Slot {
  std::atomic<uint64_t> started; ///< 0: idle; else when the step began
  char text[kTextSize];
};

struct Record {
  std::atomic<bool> delivered; ///< the result is complete in the result file
  std::atomic<unsigned> nextSlot;
  std::atomic<uint64_t> clock;
  char phase[kTextSize];
  char fault[kTextSize]; ///< what the child knew before dying (an uncaught exception)
  Slot slots[kSlots];
};

Record *current = nullptr; // set in the isolated child only
thread_local int threadSlot = -1;

void copyText(char (&to)[kTextSize], const Twine &text) {
  SmallString<256> buffer;
  StringRef s = text.toStringRef(buffer);
  size_t n = std::min(s.size(), kTextSize - 1);
  std::memcpy(to, s.data(), n);
  to[n] = '\0';
}

#ifdef KILN_HAVE_FORK

// An exception no one catches ends in std::terminate: say which one, since
// the parent only sees SIGABRT. (This file alone is built with exceptions,
// to read what() of a plugin's exception.)
[[noreturn]] void onTerminate() {
  if (current) {
    std::string what = "std::terminate() was called";
    if (const std::type_info *type = abi::__cxa_current_exception_type()) {
      int status = 0;
      char *name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
      what = std::string("an uncaught C++ exception of type '") +
             (status == 0 && name ? name : type->name()) + "'";
      std::free(name);
      try {
        std::rethrow_exception(std::current_exception());
      } catch (const std::exception &exception) {
        what += std::string(": ") + exception.what();
      } catch (...) {
      }
    }
    copyText(current->fault, what);
  }
  std::abort();
}

bool writeAll(int fd, const char *data, size_t size) {
  while (size) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= n;
  }
  return true;
}

bool readAll(int fd, std::string &out) {
  struct stat info;
  if (::fstat(fd, &info) != 0)
    return false;
  out.resize(info.st_size);
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd, out.data() + done, out.size() - done, done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += n;
  }
  return true;
}

/// An anonymous file for the result: no size limit, nothing left on disk,
/// and not inherited by programs the child runs.
int resultFile() {
#if defined(__linux__)
  int fd = ::memfd_create("kiln-result", MFD_CLOEXEC);
  if (fd >= 0)
    return fd;
#endif
  int fd2 = -1;
  SmallString<128> path;
  if (sys::fs::createTemporaryFile("kiln-result", "", fd2, path))
    return -1;
  sys::fs::remove(path);
  return fd2;
}

[[noreturn]] void runChild(Record *record, int fd, pid_t parent,
                           function_ref<Expected<std::string>()> work) {
#if defined(__linux__)
  // Do not outlive a parent that is killed while it waits.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (::getppid() != parent)
    ::_exit(1);
  // The default action, not LLVM's stack dump: the parent reports the crash
  // in one line (run with --no-isolate for the stack trace).
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP})
    ::signal(sig, SIG_DFL);
  std::set_terminate(onTerminate);
  current = record;

  Expected<std::string> result = work();
  char tag = result ? 'R' : 'E';
  std::string payload = result ? std::move(*result) : toString(result.takeError());
  outs().flush();
  errs().flush();
  std::fflush(nullptr);
  if (!writeAll(fd, &tag, 1) || !writeAll(fd, payload.data(), payload.size())) {
    copyText(record->fault, Twine("it could not hand its result back: ") + std::strerror(errno));
    ::_exit(1);
  }
  record->delivered.store(true, std::memory_order_release);
  // _exit: the parent's atexit handlers and static destructors are its own.
  ::_exit(0);
}

std::string signalName(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGILL: return "SIGILL";
  case SIGFPE: return "SIGFPE";
  case SIGABRT: return "SIGABRT";
  case SIGTRAP: return "SIGTRAP";
  case SIGSYS: return "SIGSYS";
  case SIGKILL: return "SIGKILL";
  case SIGTERM: return "SIGTERM";
  case SIGINT: return "SIGINT";
  case SIGHUP: return "SIGHUP";
  case SIGQUIT: return "SIGQUIT";
  case SIGPIPE: return "SIGPIPE";
  case SIGXCPU: return "SIGXCPU";
  case SIGXFSZ: return "SIGXFSZ";
  }
  return "signal " + std::to_string(sig);
}

bool isCrashSignal(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGABRT ||
         sig == SIGTRAP || sig == SIGSYS;
}

/// " while parsing 'k.ttir'", " in stage 'ttir', in pass ...": the phase,
/// then the step begun last; steps other threads were in follow it.
std::string whereItWas(const Record &record) {
  std::string where;
  if (record.phase[0])
    where = std::string(" ") + record.phase;
  std::vector<std::pair<uint64_t, std::string>> active;
  for (const Slot &slot : record.slots)
    if (uint64_t started = slot.started.load(std::memory_order_acquire))
      active.emplace_back(started, slot.text);
  std::sort(active.begin(), active.end(), [](auto &a, auto &b) { return a.first > b.first; });
  std::vector<std::string> steps;
  for (auto &[started, text] : active)
    if (!llvm::is_contained(steps, text))
      steps.push_back(text);
  if (steps.empty())
    return where;
  where += (where.empty() ? " in " : ", in ") + steps.front();
  if (steps.size() > 1)
    where += " (other threads were in " +
             llvm::join(ArrayRef(steps).drop_front(), ", ") + ")";
  return where;
}

Expected<std::string> collect(StringRef what, const Record &record, int fd, int status) {
  if (WIFEXITED(status) && record.delivered.load(std::memory_order_acquire)) {
    std::string data;
    if (!readAll(fd, data) || data.empty())
      return error("cannot read back the result of the isolated " + what + ": " +
                   std::strerror(errno));
    char tag = data.front();
    data.erase(0, 1);
    if (tag == 'E')
      return error(data);
    return data;
  }
  std::string message = what.str();
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    message += (isCrashSignal(sig) ? " crashed (" : " was killed (") + signalName(sig);
    if (record.fault[0])
      message += std::string(", ") + record.fault;
    message += ")";
  } else {
    message += " exited with status " + std::to_string(WEXITSTATUS(status)) +
               " without a result";
    if (record.fault[0])
      message += std::string(" (") + record.fault + ")";
  }
  return error(message + whereItWas(record));
}

#endif // KILN_HAVE_FORK

} // namespace

bool isolationAvailable() {
#ifdef KILN_HAVE_FORK
  return true;
#else
  return false;
#endif
}

Expected<std::string> runIsolated(StringRef what,
                                  function_ref<Expected<std::string>()> work) {
#ifndef KILN_HAVE_FORK
  return work();
#else
  auto fail = [&](const char *call) {
    return error("cannot isolate the " + what + ": " + call + ": " + std::strerror(errno));
  };
  void *memory = ::mmap(nullptr, sizeof(Record), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return fail("mmap");
  scope_exit unmap([&] { ::munmap(memory, sizeof(Record)); });
  Record *record = new (memory) Record();
  int fd = resultFile();
  if (fd < 0)
    return fail("cannot create the result file");
  scope_exit closeFile([&] { ::close(fd); });

  // Buffered output would otherwise be written twice, by both processes.
  outs().flush();
  errs().flush();
  std::fflush(nullptr);
  pid_t parent = ::getpid();
  pid_t child = ::fork();
  if (child < 0)
    return fail("fork");
  if (child == 0)
    runChild(record, fd, parent, work);

  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR)
      return fail("waitpid");
  return collect(what, *record, fd, status);
#endif
}

Expected<int> runIsolatedStatus(StringRef what, function_ref<int()> work) {
  Expected<std::string> status =
      runIsolated(what, [&]() -> Expected<std::string> { return std::to_string(work()); });
  if (!status)
    return status.takeError();
  return std::atoi(status->c_str());
}

Expected<bool> wantsIsolation(bool isolateFlag, bool noIsolateFlag, bool toolDefault) {
  if (isolateFlag && noIsolateFlag)
    return error("--isolate and --no-isolate contradict each other");
  if (isolateFlag || noIsolateFlag)
    return isolateFlag;
  std::optional<std::string> env = sys::Process::GetEnv("KILN_ISOLATE");
  if (!env || env->empty())
    return toolDefault;
  std::string value = StringRef(*env).lower();
  if (value == "1" || value == "true" || value == "on" || value == "yes")
    return true;
  if (value == "0" || value == "false" || value == "off" || value == "no")
    return false;
  return error("KILN_ISOLATE is '" + *env + "'; use 1 or 0 (or true/false, on/off, yes/no)");
}

namespace progress {

bool enabled() { return current != nullptr; }

void setPhase(const Twine &phase) {
  if (current)
    copyText(current->phase, phase);
}

void beginStep(const Twine &step) {
  Record *record = current;
  if (!record)
    return;
  if (threadSlot < 0)
    threadSlot = std::min(record->nextSlot.fetch_add(1), kSlots - 1);
  Slot &slot = record->slots[threadSlot];
  copyText(slot.text, step);
  slot.started.store(record->clock.fetch_add(1) + 1, std::memory_order_release);
}

void endStep() {
  if (current && threadSlot >= 0)
    current->slots[threadSlot].started.store(0, std::memory_order_release);
}

} // namespace progress

} // namespace kiln
