//===- ReplayMain.cpp - Run a fuzz target over saved inputs, no libFuzzer -===//
//
// The normal suite is built with GCC, which has no libFuzzer, yet it must
// replay every input a fuzzer once crashed on (fuzz/regressions/TARGET/).
// This main feeds files to the target's LLVMFuzzerTestOneInput one by one,
// the way `FUZZER FILE...` would, so a regression is a crash or a sanitizer
// report here too.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

static int usage(const char *argv0, int code) {
  std::fprintf(code ? stderr : stdout,
               "usage: %s [--help] PATH...\n"
               "Runs this fuzz target once on each file; a directory means\n"
               "every regular file in it, in name order. Exits 0 when every\n"
               "input ran, 1 when a path cannot be read (a crash or sanitizer\n"
               "report ends the process on its own).\n",
               argv0);
  return code;
}

int main(int argc, char **argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h"))
      return usage(argv[0], 0);
    fs::path path(argv[i]);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> inDir;
      for (const fs::directory_entry &e : fs::directory_iterator(path, ec))
        if (e.is_regular_file())
          inDir.push_back(e.path());
      std::sort(inDir.begin(), inDir.end());
      files.insert(files.end(), inDir.begin(), inDir.end());
    } else {
      files.push_back(path);
    }
  }
  if (argc < 2)
    return usage(argv[0], 2);
  for (const fs::path &path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.c_str());
      return 1;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    std::fprintf(stderr, "running %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::fprintf(stderr, "%zu inputs ran\n", files.size());
  return 0;
}
