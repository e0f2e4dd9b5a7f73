//===- FuzzArchive.cpp - libFuzzer target: loading and running archives --===//
//
// Model::load takes an archive from anywhere: its zip structure, manifest,
// checksums, weights table and code object are all untrusted until checked.
// When a mutated archive still loads, each entry runs once on small valid
// inputs built from the signature the manifest now states, which exercises
// the size and signature checks Model::run makes before any code runs.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "kiln/Model.h"

#include <map>

using namespace kiln;

namespace {

/// Zeros shaped by `info`, with every symbolic dim bound to the same small
/// size per symbol, so that inputs agree wherever the signature says they
/// must.
Tensor inputFor(const ValueInfo &info, std::map<std::string, int64_t> &sizes) {
  std::vector<int64_t> shape;
  for (const DimInfo &d : info.dims) {
    if (d.size >= 0) {
      shape.push_back(d.size);
      continue;
    }
    auto [it, fresh] = sizes.try_emplace(d.symbol, 2 + sizes.size() % 3);
    shape.push_back(it->second);
  }
  return Tensor::zeros(info.dtype, shape);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::FuzzInput file(data, size);
  Result<Model> model = Model::load(file.path());
  if (!model)
    return 0;
  for (const EntryInfo &entry : model.value().entries()) {
    // A signature that claims a huge static dim gets an Error from run(),
    // which is the behaviour under test; building it here first would only
    // test the fuzzer's allocation limit.
    std::map<std::string, int64_t> sizes;
    std::vector<Tensor> inputs;
    bool small = true;
    for (const ValueInfo &arg : entry.args) {
      for (const DimInfo &d : arg.dims)
        small = small && d.size < 4096;
      if (small)
        inputs.push_back(inputFor(arg, sizes));
    }
    if (!small)
      continue;
    (void)model.value().run(entry.name, inputs);
  }
  return 0;
}
