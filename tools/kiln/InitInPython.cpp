//===- InitInPython.cpp - Building an nn.Module instance in real Python ----===//

#include "tools/kiln/InitInPython.h"

#include "frontend/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <thread>

#include <unistd.h>

extern char **environ;

namespace kiln {

InitFolder::~InitFolder() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

namespace {

/// Exit status of _instantiate.py for an error the user can fix.
constexpr int kUserError = 3;

/// $KILN_PYTHON, else Debian's python3 (the one with python3-torch), else
/// the first python3 on PATH.
std::string findPython() {
  if (const char *env = std::getenv("KILN_PYTHON"); env && *env)
    return env; // checked by the caller, which names it
  if (llvm::sys::fs::can_execute("/usr/bin/python3"))
    return "/usr/bin/python3";
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("python3");
  return found ? *found : "";
}

/// The folder that holds the kiln Python package: share/kiln/python next
/// to bin/ in a build tree and in an installation alike.
std::string packageFolder() {
  std::string exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&packageFolder));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "share", "kiln", "python");
  return dir.str().str();
}

/// Half of this machine's memory: enough for any model's __init__, and a
/// 40 GB nn.Linear fails in Python instead of taking the machine down.
uint64_t memoryLimit() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  uint64_t total = pages > 0 && size > 0 ? uint64_t(pages) * size : 8ull << 30;
  return std::max<uint64_t>(total / 2, 2ull << 30);
}

/// Runs `argv` to its end, or kills it after `seconds`: returns its exit
/// status, -1 when it could not run, -2 when it crashed and -3 when it was
/// killed. ExecuteAndWait's own timeout is an alarm signal, which a thread
/// of MLIR's pool may take instead of the waiting one; polling is not
/// fooled.
int runWithTimeout(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> argv,
                   llvm::ArrayRef<llvm::StringRef> env,
                   llvm::ArrayRef<std::optional<llvm::StringRef>> redirects,
                   unsigned seconds, std::string &why) {
  bool failed = false;
  llvm::sys::ProcessInfo child = llvm::sys::ExecuteNoWait(
      program, argv, env, redirects, 0, &why, &failed);
  if (failed)
    return -1;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (auto pause = std::chrono::milliseconds(2);;
       pause = std::min(pause * 2, std::chrono::milliseconds(100))) {
    llvm::sys::ProcessInfo done = llvm::sys::Wait(child, 0, &why);
    if (done.Pid != 0)
      return done.ReturnCode;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child.Pid, SIGKILL);
      llvm::sys::Wait(child, std::nullopt);
      return -3;
    }
    std::this_thread::sleep_for(pause);
  }
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

/// The error that _instantiate.py wrote, reported at the innermost frame
/// in the compiled file when there is one, with the frames that led there
/// as notes.
void reportUserError(const InitRequest &r, const nlohmann::json &error,
                     DiagnosticEngine &diags) {
  std::string message = error.value("message", std::string("failed"));
  std::string what = "building '" + r.cls + "' in Python: " + message;
  std::vector<SourceRange> here;
  std::string elsewhere;
  for (const nlohmann::json &f : error.value("frames", nlohmann::json::array())) {
    std::string file = f.value("file", std::string());
    uint32_t line = f.value("line", 0u);
    // Python's path is absolute and normalized; r.file is as given.
    if (llvm::sys::fs::equivalent(file, r.file)) {
      uint32_t col = f.value("col", 1u), endLine = f.value("end_line", line),
               endCol = f.value("end_col", col + 1);
      if (endLine != line || endCol <= col)
        endCol = col + 1;
      here.push_back({{line, col}, {line, endCol}});
      elsewhere.clear();
    } else {
      elsewhere = file + ":" + std::to_string(line) + ", in " +
                  f.value("function", std::string("?"));
    }
  }
  if (!elsewhere.empty() && !here.empty())
    what += " (raised at " + elsewhere + ")";
  if (here.empty()) {
    fmt::print(stderr, "kiln: error: {}: {}\n", r.file, what);
    return;
  }
  Diagnostic &d = diags.error(here.back(), what);
  // A recursion repeats one call a thousand times: say it once, counted.
  for (size_t i = here.size() - 1; i-- > 0;) {
    size_t same = 1;
    while (i > 0 && here[i - 1].begin.line == here[i].begin.line &&
           here[i - 1].begin.col == here[i].begin.col)
      --i, ++same;
    d.notes.push_back({here[i], same == 1 ? "called from here"
                                          : "called from here (" +
                                                std::to_string(same) +
                                                " times in a row)"});
  }
  fmt::print(stderr, "{}", diags.render(d));
}

} // namespace

bool instantiateInPython(const InitRequest &r, DiagnosticEngine &diags,
                         InitFolder &folder) {
  auto fail = [&](const std::string &why) {
    fmt::print(stderr,
               "kiln: error: compiling the class '{}' runs its __init__ in "
               "Python, {}\n",
               r.cls, why);
    return false;
  };
  std::string python = findPython();
  if (python.empty())
    return fail("and no python3 was found; install Debian's python3-torch "
                "or set KILN_PYTHON");
  if (!llvm::sys::fs::can_execute(python))
    return fail("and KILN_PYTHON names '" + python +
                "', which is not an executable");
  std::string package = packageFolder();
  std::string script = package + "/kiln/_instantiate.py";
  if (!llvm::sys::fs::exists(script))
    return fail("and this kiln has no Python package at " + package +
                " (install kiln with its share/ folder)");
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("kiln-init", dir))
    return fail("but a temporary folder could not be made: " + ec.message());
  folder.path = dir.str().str();

  std::vector<std::string> argv = {python, script, r.file, r.cls,
                                   folder.path, "--seed",
                                   std::to_string(r.seed), "--memory-bytes",
                                   std::to_string(memoryLimit())};
  for (const std::string &a : r.initArgs)
    argv.insert(argv.end(), {"--init-arg", a});
  if (!r.weights)
    argv.push_back("--no-weights");
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (!llvm::StringRef(*e).starts_with("PYTHONPATH="))
      env.push_back(*e);
  const char *old = std::getenv("PYTHONPATH");
  env.push_back("PYTHONPATH=" + package +
                (old && *old ? ":" + std::string(old) : ""));
  std::vector<llvm::StringRef> argRefs(argv.begin(), argv.end()),
      envRefs(env.begin(), env.end());
  // The file's print()s and warnings go to stderr, never into the IR that
  // kiln prints on stdout.
  std::string out = folder.path + "/output.txt";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(out)};
  std::string why;
  int status = runWithTimeout(python, argRefs, envRefs, redirects,
                              r.timeoutSeconds, why);
  std::string printed = readFile(out);
  if (status == -3)
    return fail("which did not finish within " +
                std::to_string(r.timeoutSeconds) + " s (--init-timeout)");
  if (status == kUserError) {
    fmt::print(stderr, "{}", printed);
    nlohmann::json error =
        nlohmann::json::parse(readFile(folder.path + "/error.json"), nullptr,
                              /*allow_exceptions=*/false);
    if (error.is_object() && error.value("frames", nlohmann::json()).empty() &&
        llvm::StringRef(error.value("message", std::string()))
            .starts_with("this python3 cannot import torch"))
      return fail("but " + python + error.value("message", std::string())
                      .substr(std::string("this python3").size()) +
                  "; install Debian's python3-torch or set KILN_PYTHON");
    if (error.is_object()) {
      reportUserError(r, error, diags);
      return false;
    }
  }
  if (status != 0)
    return fail("and " + python + " failed (" +
                (why.empty() ? "exit status " + std::to_string(status) : why) +
                "):\n" + printed);
  fmt::print(stderr, "{}", printed);
  return true;
}

} // namespace kiln
