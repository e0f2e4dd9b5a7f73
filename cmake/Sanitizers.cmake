# Sanitizer and fuzzing builds (see docs/testing.md).
#
#   -DKILN_SANITIZE=address,undefined   ASan+UBSan, every target
#   -DKILN_SANITIZE=thread              TSan (with KILN_RUNTIME_ONLY=ON)
#   -DKILN_FUZZ=ON                      libFuzzer coverage, and the fuzz/ targets
#
# These need clang (libFuzzer and TSan are clang's); the normal GCC build sets
# none of them. The flags are global, so that the runtime, the frontend and
# the tools are instrumented alike; LLVM, MLIR, oneDNN and the code objects
# kiln writes are not, which ASan allows.
set(KILN_SANITIZE "" CACHE STRING
  "Comma-separated -fsanitize= list for every target (empty: none)")
option(KILN_FUZZ "Add libFuzzer coverage instrumentation and build fuzz/ targets" OFF)

if(KILN_SANITIZE)
  # Stop at the first report: a sanitizer finding is a failed test, never a
  # warning that scrolls by.
  add_compile_options(-fsanitize=${KILN_SANITIZE} -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${KILN_SANITIZE})
endif()

if(KILN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KILN_FUZZ needs clang (libFuzzer); configure with clang++-19")
  endif()
  # Coverage for every library; only the fuzz executables link libFuzzer's
  # main (-fsanitize=fuzzer, in fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
