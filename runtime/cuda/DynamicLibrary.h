//===- DynamicLibrary.h - Libraries the CUDA plugin opens with dlopen -----===//
//
// The GPU libraries (cuBLAS, cuDNN) are opened when an archive needs them,
// so that the plugin links none of them (CudaDriver.cpp does the same for
// the driver, with its own error reporting).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_DYNAMICLIBRARY_H
#define KILN_RUNTIME_DYNAMICLIBRARY_H

#include <dlfcn.h>

#include <initializer_list>

namespace kiln {

/// The first of `names` that dlopen opens, or null.
inline void *openFirst(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return lib;
  return nullptr;
}

/// Sets `slot` to `lib`'s function `name`; false when it has none.
template <typename F> bool resolve(void *lib, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(lib, name));
  return slot != nullptr;
}

} // namespace kiln

#endif // KILN_RUNTIME_DYNAMICLIBRARY_H
