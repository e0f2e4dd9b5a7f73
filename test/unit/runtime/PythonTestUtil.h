//===- PythonTestUtil.h - Scratch files and live Python for runtime tests -===//
//
// Some runtime tests check kiln against the real numpy and PyTorch rather
// than against pasted expectations; these helpers give them a scratch
// directory and run KILN_TEST_PYTHON in it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TEST_UNIT_RUNTIME_PYTHONTESTUTIL_H
#define KILN_TEST_UNIT_RUNTIME_PYTHONTESTUTIL_H

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace kiln::test {

/// A fresh directory, removed with everything in it at scope exit.
class TempDir {
public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "kiln-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
  }
  std::string operator/(const std::string &name) const {
    return root + "/" + name;
  }
  const std::string &path() const { return root; }

private:
  std::string root;
};

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

/// Runs `script` with the test Python, passing `dir` as sys.argv[1], and
/// returns what it printed.
inline std::string runPython(const TempDir &dir, const std::string &script) {
  std::string scriptPath = dir / "script.py";
  writeFile(scriptPath, script);
  std::string command = std::string(KILN_TEST_PYTHON) + " " + scriptPath + " " +
                        dir.path() + " 2>&1";
  std::FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, got);
  int status = pclose(pipe);
  INFO(output);
  REQUIRE(status == 0);
  return output;
}

} // namespace kiln::test

#endif // KILN_TEST_UNIT_RUNTIME_PYTHONTESTUTIL_H
