//===- ZipReader.h - Reads the zip directory of a .kiln archive -----------===//
//
// The runtime maps an archive and hands out pointers into it, so this reader
// copies no data: it checks the zip structure and reports where each entry's
// bytes lie in the caller's buffer. Checksums are left to the caller, which
// knows which entries it will touch (crc32Of is here for that).
//
// Private to libkiln_runtime. The two functions are exported only so that
// kiln-runtime-tests, which links the shared library, can test them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_ZIPREADER_H
#define KILN_RUNTIME_ZIPREADER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kiln {

struct ZipEntry {
  std::string name;
  /// Where the entry's data starts, counted from the start of the archive.
  uint64_t offset = 0;
  uint64_t size = 0;
  /// The CRC-32 recorded in the central directory, not yet checked.
  uint32_t crc32 = 0;
};

/// Parses the central directory of the zip archive in data[0, size), and
/// sets `entries` to its entries in directory order. Accepts only what the
/// runtime can map in place: one disk, every entry stored (method 0) and
/// unencrypted, every local header agreeing with the central directory,
/// all data within the buffer, no duplicate names. Zip64 archives are read.
/// On failure returns false and sets `error` to a message such as
/// "entry 'cpu/code.so' is compressed (method 8); kiln archives store
/// entries uncompressed"; `entries` is then left empty.
__attribute__((visibility("default"))) bool
readZipDirectory(const uint8_t *data, size_t size,
                 std::vector<ZipEntry> &entries, std::string &error);

/// `entries` by name, for the lookups of a load: an archive may list
/// thousands of weights, and a scan per name would be quadratic. Views
/// `entries`, which must outlive it.
class ZipIndex {
public:
  explicit ZipIndex(const std::vector<ZipEntry> &entries) {
    byName.reserve(entries.size());
    for (const ZipEntry &entry : entries)
      byName.emplace(entry.name, &entry);
  }
  /// The entry named `name`, or null.
  const ZipEntry *find(std::string_view name) const {
    auto found = byName.find(name);
    return found == byName.end() ? nullptr : found->second;
  }

private:
  std::unordered_map<std::string_view, const ZipEntry *> byName;
};

/// The zip (and zlib) CRC-32 of data[0, size).
__attribute__((visibility("default"))) uint32_t crc32Of(const uint8_t *data,
                                                        size_t size);

} // namespace kiln

#endif // KILN_RUNTIME_ZIPREADER_H
