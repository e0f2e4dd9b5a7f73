//===- CudaToolkit.cpp - The CUDA toolkit that --target=cuda needs -------===//
//
// The toolkit is looked up at run time, never at build time: the compiler
// builds on a machine without CUDA and needs it only for --target=cuda,
// with a clear message when it is missing. (MLIR's own lookup reads a path
// fixed when LLVM was built, which Debian's build leaves empty, so kiln
// names libdevice itself.)
//
// ptxas runs as a process, not through the toolkit's static
// libnvptxcompiler: the compiler then links nothing of CUDA's, builds on a
// machine without the toolkit, and needs it only when --target=cuda is
// asked for, with a clear message when it is missing. A process per
// architecture costs about 20 ms, small beside the MLIR lowering.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/CudaToolkit.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace kiln {

namespace {

bool complete(const std::string &root, CudaToolkit &toolkit) {
  toolkit = {root, root + "/bin/ptxas",
             root + "/nvvm/libdevice/libdevice.10.bc"};
  return llvm::sys::fs::can_execute(toolkit.ptxas) &&
         llvm::sys::fs::exists(toolkit.libdevice);
}

bool readFile(const llvm::SmallString<128> &path, std::string &out) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return false;
  out = (*buffer)->getBuffer().str();
  return true;
}

} // namespace

std::string findCudaToolkit(CudaToolkit &toolkit) {
  // Set, it is the only place looked at: a build that names its toolkit
  // must not silently get another.
  if (const char *root = std::getenv("KILN_CUDA_PATH"); root && *root)
    return complete(root, toolkit)
               ? ""
               : "$KILN_CUDA_PATH (" + std::string(root) +
                     ") is not a CUDA toolkit: --target=cuda needs its "
                     "bin/ptxas and nvvm/libdevice/libdevice.10.bc";
  for (const char *variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *root = std::getenv(variable);
        root && *root && complete(root, toolkit))
      return "";
  if (complete("/usr/local/cuda", toolkit))
    return "";
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas");
      ptxas && complete(llvm::sys::path::parent_path(
                            llvm::sys::path::parent_path(*ptxas))
                            .str(),
                        toolkit))
    return "";
  return "--target=cuda needs the CUDA toolkit (bin/ptxas and "
         "nvvm/libdevice/libdevice.10.bc), which is in none of $CUDA_PATH, "
         "$CUDA_HOME, /usr/local/cuda or above a ptxas on PATH (or set "
         "$KILN_CUDA_PATH)";
}

bool assemblePtx(const CudaToolkit &toolkit, const std::string &ptx,
                 const std::string &arch, std::string &cubin,
                 std::string &error) {
  const std::string &ptxas = toolkit.ptxas;
  llvm::SmallString<128> input, output, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("kiln-kernels", "ptx", fd, input) ||
      llvm::sys::fs::createTemporaryFile("kiln-kernels", "cubin", output) ||
      llvm::sys::fs::createTemporaryFile("kiln-ptxas", "log", log)) {
    error = "cannot create temporary files for ptxas";
    return false;
  }
  auto cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(input);
    llvm::sys::fs::remove(output);
    llvm::sys::fs::remove(log);
  });
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    stream << ptx;
  }
  std::string archFlag = "-arch=" + arch;
  llvm::StringRef args[] = {ptxas, archFlag, "-O3", input, "-o", output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/300, 0, &message);
  if (status != 0) {
    std::string text;
    readFile(log, text);
    error = "ptxas " + archFlag + " failed" +
            (message.empty() ? "" : " (" + message + ")") + ": " + text;
    return false;
  }
  if (!readFile(output, cubin)) {
    error = "ptxas wrote no cubin for " + arch;
    return false;
  }
  return true;
}

} // namespace kiln
