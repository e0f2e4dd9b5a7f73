//===- ApiBoundary.h - No exception leaves the runtime API (private) ------===//
//
// The runtime's own code reports user errors as values, but the standard
// library throws when memory runs out (std::bad_alloc) and on contract
// breaches it should never see (std::length_error). Every public function
// that returns a Result runs its body through catchAll, so that whatever is
// thrown becomes an Error instead of crossing the API (docs/runtime.md).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_APIBOUNDARY_H
#define KILN_RUNTIME_APIBOUNDARY_H

#include "kiln/Result.h"

#include <exception>
#include <new>
#include <string>

namespace kiln {

/// Runs `body`, which returns Result<T>, and turns an exception into an
/// Error whose message starts with `prefix` (such as "model.kiln: ").
template <typename T, typename F>
Result<T> catchAll(const std::string &prefix, F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return Error{prefix + "out of memory", ErrorKind::OutOfMemory};
  } catch (const std::exception &e) {
    return Error{prefix + "internal error: " + e.what(), ErrorKind::Internal};
  } catch (...) {
    return Error{prefix + "internal error: an unknown exception",
                 ErrorKind::Internal};
  }
}

} // namespace kiln

#endif // KILN_RUNTIME_APIBOUNDARY_H
