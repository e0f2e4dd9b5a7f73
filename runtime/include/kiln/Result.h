//===- kiln/Result.h - Errors as values across the runtime API -----------===//
//
// No exception ever leaves libkiln_runtime: every fallible call returns a
// Result, which holds either a value or an Error with a ready-to-print
// message (for run-time failures inside compiled code, the message already
// includes the source line and caret).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RESULT_H
#define KILN_RESULT_H

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace kiln {

/// What kind of failure an Error is, for callers that act on it rather than
/// print it (the C API maps each to a status code). Set where the error
/// arises.
enum class ErrorKind {
  InvalidArgument, ///< the call does not fit: inputs against the signature
  NotFound,        ///< no entry point of that name
  Io,              ///< the file cannot be opened or read
  InvalidArchive,  ///< not a kiln archive, or a damaged one
  Unsupported,     ///< a sound archive this runtime or CPU cannot run
  Runtime,         ///< compiled code stopped with an error (a failed check)
  OutOfMemory,
  Internal, ///< a bug in kiln
};

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::InvalidArgument;
};

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : state(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : state(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return state.index() == 0; }
  explicit operator bool() const { return ok(); }

  T &value() & {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(state);
  }
  const T &value() const & {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(state);
  }
  T &&value() && {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(std::move(state));
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const Error &error() const {
    assert(!ok() && "error() on a successful Result");
    return std::get<1>(state);
  }

private:
  std::variant<T, Error> state;
};

/// A Result that carries no value, only success or an Error.
template <> class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Error error) : failure(std::move(error)), failed(true) {}

  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  const Error &error() const {
    assert(failed && "error() on a successful Result");
    return failure;
  }

private:
  Error failure;
  bool failed = false;
};

} // namespace kiln

#endif // KILN_RESULT_H
