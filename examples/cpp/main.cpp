// Runs one entry point of a .kiln archive on inputs read from .npy files,
// the way an application embeds a kiln model: no Python, no libtorch.
//
//   kiln-example ARCHIVE ENTRY [INPUT.npy ...]
//
// With no inputs, the entry must take one f32 tensor of rank 1: the example
// then passes a std::vector it owns, borrowed without a copy.
#include <kiln/Format.h>
#include <kiln/Model.h>
#include <kiln/Npy.h>

#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: kiln-example ARCHIVE ENTRY [INPUT.npy ...]\n";
    return 2;
  }
  kiln::Result<kiln::Model> model = kiln::Model::load(argv[1]);
  if (!model) {
    std::cerr << model.error().message << "\n";
    return 1;
  }
  const kiln::EntryInfo *entry = model->entry(argv[2]);
  if (!entry) {
    std::cerr << "no entry point '" << argv[2] << "'\n";
    return 1;
  }

  std::vector<float> owned = {-2.0f, -1.0f, 0.0f, 0.5f, 1.0f};
  std::vector<kiln::Tensor> inputs;
  if (argc == 3) {
    inputs.push_back(kiln::Tensor::borrow(
        kiln::DType::F32, {static_cast<int64_t>(owned.size())}, owned.data()));
  }
  for (int i = 3; i < argc; ++i) {
    kiln::Result<kiln::Tensor> input = kiln::readNpy(argv[i]);
    if (!input) {
      std::cerr << input.error().message << "\n";
      return 1;
    }
    inputs.push_back(*input);
  }

  kiln::Result<std::vector<kiln::Tensor>> outputs =
      model->run(entry->name, inputs);
  if (!outputs) {
    std::cerr << outputs.error().message << "\n";
    return 1;
  }
  for (size_t i = 0; i < outputs->size(); ++i)
    std::cout << entry->results[i].name << " = "
              << kiln::formatTensor((*outputs)[i]) << "\n";
  return 0;
}
