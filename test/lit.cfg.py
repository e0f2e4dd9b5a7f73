# lit configuration for kiln's golden tests.
import os
import lit.formats

config.name = "kiln"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".py", ".test"]
config.test_source_root = config.kiln_test_src_dir
config.test_exec_root = os.path.join(os.path.dirname(__file__) if False else config.kiln_tools_dir, "..", "test-output")
# Unit tests and helpers are not lit tests.
config.excludes = ["unit", "gpu", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt", "Inputs"]

config.environment["PATH"] = os.pathsep.join(
    [config.kiln_tools_dir, "/usr/lib/llvm-19/bin", config.environment.get("PATH", "")])
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%examples", os.path.join(config.kiln_source_dir, "examples")))
config.substitutions.append(("%kiln_bin", config.kiln_tools_dir))
config.substitutions.append(("%inputs", os.path.join(config.kiln_test_src_dir, "Inputs")))
# An app that links this build's libkiln_runtime must be built the same way:
# a sanitized runtime needs the app compiled and linked with the same
# sanitizers and compiler (./dev test --sanitize).
app_flags = ""
if getattr(config, "kiln_sanitize", ""):
    san = "-fsanitize=" + config.kiln_sanitize
    app_flags = ('-DCMAKE_CXX_COMPILER=%s "-DCMAKE_CXX_FLAGS=%s" '
                 '"-DCMAKE_EXE_LINKER_FLAGS=%s"' % (config.kiln_cxx_compiler, san, san))
config.substitutions.append(("%app_cmake_flags", app_flags))

# --target=cuda assembles its kernels with the CUDA toolkit's ptxas
# (codegen/cuda/Ptxas.cpp looks in the same places); the tests that compile
# for CUDA need it. No test needs a GPU.
import shutil
ptxas = None
for root in (os.environ.get("KILN_CUDA_PATH"), os.environ.get("CUDA_PATH"),
             "/usr/local/cuda"):
    if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
        ptxas = os.path.join(root, "bin", "ptxas")
        break
ptxas = ptxas or shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# A machine with the NVIDIA driver runs CUDA archives; the tests of the
# "no CUDA device" error need one without.
import ctypes
try:
    ctypes.CDLL("libcuda.so.1")  # what the runtime loads (CudaDriver.cpp)
    config.available_features.add("cuda-driver")
except OSError:
    pass
