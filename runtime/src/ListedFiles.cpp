//===- ListedFiles.cpp - The manifest's "files" table, and its checks -----===//

#include "ListedFiles.h"

#include "ThreadPool.h"
#include "Untrusted.h"

#include <xxhash.h>

#include <algorithm>

namespace kiln {

bool isListed(const std::vector<ListedFile> &files, const std::string &name) {
  return std::any_of(files.begin(), files.end(), [&](const ListedFile &file) {
    return file.name == name;
  });
}

uint64_t xxh3Of(const uint8_t *data, size_t size) {
  return XXH3_64bits(data, size);
}

std::optional<uint64_t> parseXxh3(const std::string &text) {
  if (text.size() != 16)
    return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                       : -1;
    if (digit < 0)
      return std::nullopt;
    value = value << 4 | uint64_t(digit);
  }
  return value;
}

std::string checkListedFiles(const uint8_t *archive, const ZipIndex &entries,
                             const std::vector<ListedFile> &files,
                             int threads) {
  std::vector<const ZipEntry *> found(files.size(), nullptr);
  for (size_t i = 0; i < files.size(); ++i) {
    found[i] = entries.find(files[i].name);
    if (!found[i])
      return "missing entry " + inQuotes(files[i].name);
  }
  // Starting the team costs from 0.1 to several ms (a thread made, or
  // woken on an idle core), what hashing 16 MiB alone takes: fewer bytes
  // hash on the loading thread.
  uint64_t bytes = 0;
  for (const ZipEntry *entry : found)
    bytes += entry->size;
  if (bytes < kParallelChecksumBytes)
    threads = 1;
  // One flag per file, each written by the one chunk that hashes it.
  std::vector<char> intact(files.size(), 0);
  parallelFor(int64_t(files.size()), threads, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const ListedFile &file = files[i];
      const ZipEntry &entry = *found[i];
      const uint8_t *data = archive + entry.offset;
      intact[i] = entry.size == file.size &&
                  (file.xxh3 ? xxh3Of(data, entry.size) == *file.xxh3
                             : crc32Of(data, entry.size) == file.crc32);
    }
  });
  for (size_t i = 0; i < files.size(); ++i)
    if (!intact[i])
      return "checksum mismatch in entry " + inQuotes(files[i].name) +
             ": the archive is corrupt";
  return "";
}

} // namespace kiln
