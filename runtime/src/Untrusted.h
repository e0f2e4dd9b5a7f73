//===- Untrusted.h - Rules for reading files a user names (private) -------===//
//
// Every reader of a user's file (the archive, .npy inputs, and the
// compiler's safetensors weights) opens it and reports on it through these
// helpers, so that each rule has one home: never block on a FIFO, and never
// echo a byte that could garble the terminal showing the message.
//
// Private to libkiln_runtime. Exported only so that the kiln tool, the
// archive library (codegen/archive) and kiln-runtime-tests can share them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_UNTRUSTED_H
#define KILN_RUNTIME_UNTRUSTED_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#define KILN_EXPORT __attribute__((visibility("default")))

namespace kiln {

/// A regular file opened for reading: a blocking, close-on-exec descriptor
/// the caller must close, and the file's size.
struct RegularFile {
  int fd = -1;
  uint64_t size = 0;
};

/// Opens `path` for reading. A FIFO or a device would block a plain open()
/// until a writer appears, so the file is opened non-blocking, refused
/// unless fstat says it is a regular file, and only then made blocking.
/// Returns "" or what went wrong ("cannot open: no such file or directory",
/// "not a regular file"), without the path.
KILN_EXPORT std::string openRegularFile(const std::string &path,
                                        RegularFile &file);

/// A whole regular file mapped read-only (openRegularFile's rules), for the
/// readers that use a file in place: the archive (weights are used where
/// they lie) and the compiler's safetensors reader (weights are copied once,
/// from the page cache into the archive). An empty file maps to no data.
class KILN_EXPORT MappedFile {
public:
  MappedFile() = default;
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile();

  /// Returns "" or what went wrong, without the path.
  std::string open(const std::string &path);
  /// Copies `size` bytes at `bytes` into a private read-only mapping, so
  /// that an archive loaded from memory lives and is aligned like a mapped
  /// file (page aligned, which weights need), whatever buffer it came from.
  /// Returns "" or what went wrong.
  std::string copy(const void *bytes, size_t size);

  const uint8_t *data = nullptr;
  size_t size = 0;
};

/// Reads the whole of `path` into `bytes` with openRegularFile's rules,
/// refusing a file over `maxBytes`. Returns "" or what went wrong, without
/// the path.
KILN_EXPORT std::string readRegularFile(const std::string &path,
                                        std::string &bytes,
                                        uint64_t maxBytes = UINT64_MAX);

/// strerror's text for `error`, lower-cased as kiln's messages are.
KILN_EXPORT std::string systemError(int error);

/// `text` with every control byte, DEL, C1 control and byte that is not part
/// of valid UTF-8 written as \xNN (and a backslash as \\), so that a name
/// read from a corrupt file cannot garble the terminal that shows the
/// message.
KILN_EXPORT std::string escaped(std::string_view text);

/// escaped(text) in single quotes: 'conv1.weight'.
KILN_EXPORT std::string inQuotes(std::string_view text);

} // namespace kiln

#undef KILN_EXPORT

#endif // KILN_RUNTIME_UNTRUSTED_H
