//===- CudaBackend.cpp - kiln IR to GPU kernels and their host code -------===//
//
// One linear function: lower to host code and outlined kernels, move the
// kernels into a module of their own, lower that once per architecture to
// PTX, and assemble each PTX into a cubin. The host code then goes through
// the CPU back end (CpuBackend.cpp) as the archive's code object.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/CudaBackend.h"

#include "codegen/Passes.h"
#include "codegen/cuda/CudaToolkit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;

namespace kiln {

namespace {

/// The "NN" of "sm_NN", or 0 when `arch` is not such a name.
unsigned archNumber(llvm::StringRef arch) {
  unsigned number = 0;
  if (!arch.consume_front("sm_") || arch.getAsInteger(10, number))
    return 0;
  return number;
}

/// The PTX of `kernels` for `arch`, from the NVVM pipeline.
bool lowerToPtx(ModuleOp kernels, const CudaToolkit &toolkit,
                const std::string &arch,
                const std::function<void(PassManager &)> &instrument,
                std::string &ptx, std::string &error) {
  OwningOpRef<ModuleOp> copy(kernels.clone());
  PassManager pm(kernels.getContext());
  // The NVPTX back end at -O3 whatever the host's level: kernels are
  // small, and -O0 PTX would only be slower.
  buildNvvmPipeline(pm, arch, 3, toolkit.root);
  if (instrument)
    instrument(pm);
  if (failed(pm.run(*copy))) {
    error = "lowering the kernels to PTX for " + arch + " failed";
    return false;
  }
  auto binary = *copy->getOps<gpu::BinaryOp>().begin();
  auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  // The PTX string ends with a NUL, which ptxas does not want.
  ptx = object.getObject().getValue().rtrim('\0').str();
  return true;
}

} // namespace

std::string parseCudaArchs(const std::string &list,
                           std::vector<std::string> &archs) {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(list).split(names, ',');
  archs.clear();
  for (llvm::StringRef name : names) {
    name = name.trim();
    if (archNumber(name) < 52)
      return "--cuda-arch '" + name.str() +
             "' is not a GPU architecture kiln supports: expected sm_NN with "
             "NN 52 or more (sm_80 for A100, sm_90 for H100)";
    if (llvm::is_contained(archs, name))
      return "--cuda-arch lists '" + name.str() + "' twice";
    archs.push_back(name.str());
  }
  std::sort(archs.begin(), archs.end(), [](const auto &a, const auto &b) {
    return archNumber(a) < archNumber(b);
  });
  return "";
}

bool compileKernels(ModuleOp module, unsigned optLevel,
                    const std::vector<std::string> &archs,
                    const std::function<void(PassManager &)> &instrument,
                    CudaKernels &kernels, std::string &error) {
  CudaToolkit toolkit;
  error = findCudaToolkit(toolkit);
  if (!error.empty())
    return false;
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  buildCudaKernelPipeline(pm, optLevel);
  if (instrument)
    instrument(pm);
  if (failed(pm.run(module))) {
    error = "lowering to GPU kernels failed";
    return false;
  }

  bool matmul = false, conv = false;
  module.walk([&](func::CallOp call) {
    matmul |= call.getCallee().starts_with("kiln_rt_matmul_");
    conv |= call.getCallee().starts_with("kiln_rt_conv2d_");
  });
  if (matmul)
    kernels.libraries.push_back("cublas");
  if (conv)
    kernels.libraries.push_back("cudnn");

  auto outlined = module.lookupSymbol<gpu::GPUModuleOp>("kiln_kernels");
  OwningOpRef<ModuleOp> device(ModuleOp::create(module.getLoc()));
  (*device)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     UnitAttr::get(module.getContext()));
  for (auto fn : outlined.getOps<gpu::GPUFuncOp>())
    kernels.names.push_back(fn.getName().str());
  device->getBody()->push_back(outlined->clone());
  outlined.erase();
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());

  kernels.archs = archs;
  for (const std::string &arch : archs) {
    std::string ptx, cubin;
    if (!lowerToPtx(*device, toolkit, arch, instrument, ptx, error) ||
        !assemblePtx(toolkit, ptx, arch, cubin, error))
      return false;
    if (kernels.ptx.empty())
      kernels.ptx = ptx;
    kernels.cubins.push_back(std::move(cubin));
  }
  return true;
}

} // namespace kiln
