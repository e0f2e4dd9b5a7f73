//===- ZipWriter.h - Writes the zip container of a .kiln archive ----------===//
//
// A .kiln file is a plain zip archive (docs/archive.md) whose entries are
// stored uncompressed, each with its data at a 64-byte aligned file offset,
// so that the runtime can map any entry in place and hand out tensors that
// point straight into the file. The output depends only on the entries
// added, never on the clock or the host, so the same compile gives the same
// bytes.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_ARCHIVE_ZIPWRITER_H
#define KILN_CODEGEN_ARCHIVE_ZIPWRITER_H

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace kiln {

class ZipWriter {
public:
  /// The file offset of every entry's data is a multiple of this.
  static constexpr uint64_t Alignment = 64;

  /// Adds an entry, stored (method 0), with its data starting at a file
  /// offset that is a multiple of Alignment. Entries keep the order in which
  /// they were added; names must be unique.
  void add(std::string name, std::string data);

  /// The whole archive as bytes: each local header, padded through an extra
  /// field (id 0xd935, as Android's zipalign does) so that the data after it
  /// is aligned, then the central directory and the end record. Zip64
  /// records appear only when an entry or the archive passes 4 GiB - 1 or
  /// there are more than 65535 entries.
  std::string finish() const;

private:
  struct Entry {
    std::string name;
    std::string data;
  };
  std::vector<Entry> entries;
  std::set<std::string> names;
};

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// directory, synced, then renamed over `path`, so that a reader sees either
/// the old file or the whole new one. On failure the temporary is removed,
/// `path` is left as it was, and the result is "cannot write 'PATH':
/// <reason>"; on success it is empty. A `path` that exists and is neither
/// a regular file nor a directory (/dev/null, a FIFO) is written in place
/// instead: renaming over it would replace the device or pipe with a
/// regular file. A FIFO that no process reads is refused, not waited on.
std::string writeFileAtomically(const std::string &path,
                                const std::string &bytes);

} // namespace kiln

#endif // KILN_CODEGEN_ARCHIVE_ZIPWRITER_H
