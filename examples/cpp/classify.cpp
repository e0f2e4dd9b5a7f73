// Classifies images with a compiled image classifier such as
// examples/models/lenet.py: loads the archive once, runs its forward on a
// batch read from .npy, and prints each image's predicted class and logits.
// Running lenet.py trains it and writes net.safetensors and images.npy (see
// "From training to a C++ app" in the README):
//
//   kiln compile lenet.py --entry Net --weights net.safetensors -o net.kiln
//   kiln-classify net.kiln images.npy
//
// The .npy holds f32 images as the model's forward takes them, e.g.
// [B, 1, 32, 32] for LeNet; a single image without the batch dim is
// accepted too.
#include <kiln/Model.h>
#include <kiln/Npy.h>

#include <cstdio>
#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: kiln-classify ARCHIVE IMAGES.npy\n";
    return 2;
  }
  kiln::Result<kiln::Model> model = kiln::Model::load(argv[1]);
  if (!model) {
    std::cerr << model.error().message << "\n";
    return 1;
  }
  const kiln::EntryInfo *forward = model->entry("forward");
  if (!forward || forward->args.size() != 1 || forward->results.size() != 1) {
    std::cerr << argv[1] << ": expected a forward(x) that returns logits\n";
    return 1;
  }
  kiln::Result<kiln::Tensor> images = kiln::readNpy(argv[2]);
  if (!images) {
    std::cerr << images.error().message << "\n";
    return 1;
  }
  kiln::Tensor batch = *images;
  if (batch.rank() + 1 == static_cast<int64_t>(forward->args[0].dims.size())) {
    std::vector<int64_t> shape = batch.shape();
    shape.insert(shape.begin(), 1);
    batch = kiln::Tensor::borrow(batch.dtype(), shape, batch.data());
  }

  kiln::Result<std::vector<kiln::Tensor>> outputs =
      model->run("forward", {batch});
  if (!outputs) {
    std::cerr << outputs.error().message << "\n";
    return 1;
  }
  const kiln::Tensor &logits = outputs->front();
  if (logits.dtype() != kiln::DType::F32 || logits.rank() != 2) {
    std::cerr << "forward returned no [batch, classes] f32 logits\n";
    return 1;
  }
  int64_t classes = logits.shape()[1];
  const float *row = logits.data<float>();
  for (int64_t b = 0; b < logits.shape()[0]; ++b, row += classes) {
    int64_t best = 0;
    for (int64_t c = 1; c < classes; ++c)
      if (row[c] > row[best])
        best = c;
    std::printf("image %lld: class %lld, logits [", static_cast<long long>(b),
                static_cast<long long>(best));
    for (int64_t c = 0; c < classes; ++c)
      std::printf("%s%.4f", c ? ", " : "", row[c]);
    std::printf("]\n");
  }
  return 0;
}
