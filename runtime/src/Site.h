//===- Site.h - A run-time check's place in the script (private) ----------===//
#ifndef KILN_RUNTIME_SITE_H
#define KILN_RUNTIME_SITE_H

#include <cstdint>
#include <string>

namespace kiln {

/// A run-time check in the compiled code: where it is in the script and
/// what to say when it fails ({0}..{2} are filled at run time).
struct Site {
  std::string file;
  int64_t line = 0;
  int64_t col = 0;
  std::string message;
};

} // namespace kiln

#endif // KILN_RUNTIME_SITE_H
