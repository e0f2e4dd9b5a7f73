//===- FuzzInput.h - A fuzz input as a file the readers can open -*- C++ -*-===//
//
// The archive, .npy and safetensors readers take a path, not bytes, because
// that is how users call them. A memfd gives the bytes a path
// (/proc/self/fd/N) without touching the disk or racing other fuzz jobs on a
// shared temporary name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUZZ_FUZZINPUT_H
#define KILN_FUZZ_FUZZINPUT_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace kiln::fuzz {

class FuzzInput {
public:
  FuzzInput(const uint8_t *data, size_t size) {
    fd = memfd_create("kiln-fuzz", MFD_CLOEXEC);
    if (fd < 0) {
      // Not a finding: the harness cannot run at all.
      std::perror("memfd_create");
      std::abort();
    }
    size_t done = 0;
    while (done < size) {
      ssize_t n = write(fd, data + done, size - done);
      if (n <= 0) {
        std::perror("write");
        std::abort();
      }
      done += static_cast<size_t>(n);
    }
  }
  ~FuzzInput() { close(fd); }
  FuzzInput(const FuzzInput &) = delete;
  FuzzInput &operator=(const FuzzInput &) = delete;

  std::string path() const { return "/proc/self/fd/" + std::to_string(fd); }

private:
  int fd;
};

} // namespace kiln::fuzz

#endif // KILN_FUZZ_FUZZINPUT_H
