//===- CudaPluginEntry.cpp - The CUDA plugin's one exported symbol --------===//

#include "CudaModel.h"

#include <cstring>
#include <type_traits>

namespace kiln {

namespace {

const CudaHostServices *services = nullptr;

class Plugin final : public CudaPlugin {
public:
  std::unique_ptr<CudaModel> load(const CudaTarget &target,
                                  const EntryBytes &entry,
                                  const std::vector<WeightInfo> &weights,
                                  std::string &error) override {
    return CudaModelImpl::load(target, entry, weights, error);
  }
  std::unique_ptr<CudaCall> beginCall(const CudaModel &model,
                                      int threads) override {
    // Every CudaModel the runtime holds is one this plugin made.
    return std::make_unique<CudaCallImpl>(
        static_cast<const CudaModelImpl &>(model), threads);
  }
  Tensor copyAcrossDevices(const Tensor &tensor, Device device,
                           std::string &error) override {
    return kiln::copyAcrossDevices(tensor, device, error);
  }
};

} // namespace

void hostParallelFor(void (*body)(void *, int64_t, int64_t), void *context,
                     int64_t n, int threads) {
  services->parallelFor(body, context, n, threads);
}

} // namespace kiln

/// The interface the runtime speaks must be this plugin's, and so must its
/// build: CudaPlugin.h is not a stable ABI.
extern "C" __attribute__((visibility("default"))) kiln::CudaPlugin *
kiln_cuda_plugin(const char *interface, const kiln::CudaHostServices *services,
                 std::string *error) {
  static_assert(std::is_same_v<decltype(&kiln_cuda_plugin),
                               kiln::CudaPluginEntry>,
                "the entry point's type is CudaPlugin.h's");
  std::string own =
      std::string(kiln::kCudaPluginInterface) + " " + KILN_VERSION_STRING;
  if (std::strcmp(interface, own.c_str()) != 0) {
    *error = "the CUDA plugin is " + own + ", but the runtime is " +
             std::string(interface) + ": install the two from one build";
    return nullptr;
  }
  kiln::services = services;
  static kiln::Plugin plugin;
  return &plugin;
}
