//===- PreparedCalls.h - Kernel library calls got ready at load (private) -===//
#ifndef KILN_RUNTIME_PREPAREDCALLS_H
#define KILN_RUNTIME_PREPAREDCALLS_H

#include "ModelImpl.h"

#include <string>

namespace kiln {

/// Builds the kernel library's plans for `model.libraryCalls` and packs the
/// weights they read (LoadOptions::prepare), once the model's code and
/// weights are in place. Returns an error message or "".
std::string prepareLibraryCalls(const Model::Impl &model);

/// blocksAllocated() of the runtime's block cache, for tests (which
/// compile a copy of BlockCache.cpp, whose counter is another).
__attribute__((visibility("default"))) uint64_t runtimeBlocksAllocated();

} // namespace kiln

#endif // KILN_RUNTIME_PREPAREDCALLS_H
