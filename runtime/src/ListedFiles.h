//===- ListedFiles.h - The manifest's "files" table, and its checks -------===//
//
// Every entry an archive's manifest lists is checked at load, whether or
// not this runtime reads it, so that a damaged archive is refused whole and
// by the name of what is damaged. Archives carry two checksums per entry:
// the zip format's CRC-32, and XXH3-64 (the "xxh3" field, which older
// archives lack), which hashes about three times faster (19 GB/s against
// 7 on this project's machine) and is what the runtime checks when it is
// there. The entries are hashed in parallel on the model's threads
// (docs/archive.md, Checksums).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_LISTEDFILES_H
#define KILN_RUNTIME_LISTEDFILES_H

#include "ZipReader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// One row of the manifest's "files": an entry and what its data must be.
struct ListedFile {
  std::string name;
  uint64_t size = 0;
  uint32_t crc32 = 0;
  /// Absent in archives written before the field was.
  std::optional<uint64_t> xxh3;
};

/// Whether `files` lists the entry `name`.
bool isListed(const std::vector<ListedFile> &files, const std::string &name);

/// XXH3-64 (seed 0) of data[0, size): the hash "xxh3" records.
__attribute__((visibility("default"))) uint64_t xxh3Of(const uint8_t *data,
                                                       size_t size);

/// The "xxh3" field's value, exactly 16 lowercase hex digits, or nullopt.
__attribute__((visibility("default"))) std::optional<uint64_t>
parseXxh3(const std::string &text);

/// Below this many listed bytes, the checksums are computed on the loading
/// thread alone.
inline constexpr uint64_t kParallelChecksumBytes = uint64_t(16) << 20;

/// Checks that every listed file is in `entries` with its size and
/// checksum (XXH3 where listed, else CRC-32), hashing on up to `threads`
/// threads from kParallelChecksumBytes on. Returns "" or the message for the first bad file in the
/// manifest's order ("checksum mismatch in entry 'weights/fc.weight': the
/// archive is corrupt").
std::string checkListedFiles(const uint8_t *archive, const ZipIndex &entries,
                             const std::vector<ListedFile> &files,
                             int threads);

} // namespace kiln

#endif // KILN_RUNTIME_LISTEDFILES_H
