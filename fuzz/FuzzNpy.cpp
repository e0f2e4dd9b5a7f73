//===- FuzzNpy.cpp - libFuzzer target: the .npy reader --------------------===//
//
// `kiln run --input x=FILE.npy` hands any file to readNpy, so every byte of
// the header and data is untrusted. A finding is a crash, a sanitizer report,
// a hang or an allocation beyond the fuzzer's -rss_limit_mb; an Error is the
// expected answer to a bad file.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "kiln/Npy.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::FuzzInput file(data, size);
  kiln::Result<kiln::Tensor> tensor = kiln::readNpy(file.path());
  if (!tensor)
    return 0;
  // What loaded must be usable: touch every element, and write it back out,
  // which must succeed for every dtype numpy has.
  const kiln::Tensor &t = tensor.value();
  size_t bytes = t.nbytes();
  const auto *p = t.data<unsigned char>();
  volatile unsigned sum = 0;
  for (size_t i = 0; i < bytes; ++i)
    sum = sum + p[i];
  if (t.dtype() != kiln::DType::BF16) {
    kiln::fuzz::FuzzInput out(nullptr, 0);
    if (!kiln::writeNpy(out.path(), t))
      std::abort(); // a tensor readNpy accepted must round-trip
  }
  return 0;
}
