//===- ZipReader.cpp - Reads the zip directory of a .kiln archive ---------===//
//
// The layout is PKWARE's APPNOTE.TXT (sections 4.3 and 4.5). The input may
// be any file a user points us at, so every length and offset is checked
// against the buffer before it is used, in a form that cannot overflow
// (`a > size - b`, never `a + b > size`).
//
//===----------------------------------------------------------------------===//
#include "ZipReader.h"
#include "Untrusted.h"

#include <zlib.h>

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <string_view>
#include <unordered_set>

namespace kiln {

namespace {

constexpr uint32_t LocalHeaderSignature = 0x04034b50;
constexpr uint32_t CentralHeaderSignature = 0x02014b50;
constexpr uint32_t EndSignature = 0x06054b50;
constexpr uint32_t Zip64EndSignature = 0x06064b50;
constexpr uint32_t Zip64LocatorSignature = 0x07064b50;
constexpr uint16_t Zip64ExtraId = 0x0001;

constexpr size_t LocalHeaderSize = 30;
constexpr size_t CentralHeaderSize = 46;
constexpr size_t EndSize = 22;
constexpr size_t Zip64EndSize = 56;
constexpr size_t Zip64LocatorSize = 20;

constexpr uint64_t Max16 = 0xffff;
constexpr uint64_t Max32 = 0xffffffff;

constexpr uint16_t FlagEncrypted = 1 << 0;
/// The local header's CRC and sizes are zero; a data descriptor follows
/// the data instead.
constexpr uint16_t FlagDataDescriptor = 1 << 3;

uint16_t get16(const uint8_t *p) { return uint16_t(p[0] | p[1] << 8); }

uint32_t get32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
         uint32_t(p[3]) << 24;
}

uint64_t get64(const uint8_t *p) {
  return uint64_t(get32(p)) | uint64_t(get32(p + 4)) << 32;
}

/// The data of the extra field `id` within extra[0, size), or nullptr.
const uint8_t *findExtraField(const uint8_t *extra, size_t size, uint16_t id,
                              size_t &fieldSize) {
  while (size >= 4) {
    uint16_t fieldId = get16(extra);
    size_t length = get16(extra + 2);
    if (length > size - 4)
      return nullptr;
    if (fieldId == id) {
      fieldSize = length;
      return extra + 4;
    }
    extra += 4 + length;
    size -= 4 + length;
  }
  return nullptr;
}

/// Replaces each 32-bit `fields` value that holds the Zip64 marker with the
/// next 64-bit value of the Zip64 extra field, as APPNOTE 4.5.3 orders them.
bool readZip64Fields(const uint8_t *extra, size_t extraSize,
                     std::initializer_list<uint64_t *> fields) {
  size_t fieldSize = 0;
  const uint8_t *field =
      findExtraField(extra, extraSize, Zip64ExtraId, fieldSize);
  size_t used = 0;
  for (uint64_t *value : fields) {
    if (*value != Max32)
      continue;
    if (!field || fieldSize - used < 8)
      return false;
    *value = get64(field + used);
    used += 8;
  }
  return true;
}

/// Reads the directory; readZipDirectory wraps it so that nothing throws.
class DirectoryReader {
public:
  DirectoryReader(const uint8_t *data, size_t size, std::string &error)
      : data(data), size(size), error(error) {}

  bool read(std::vector<ZipEntry> &entries);

private:
  bool fail(std::string message) {
    error = std::move(message);
    return false;
  }
  bool findEnd();
  bool readEntry(size_t index, size_t &pos, size_t directoryEnd,
                 ZipEntry &entry);

  const uint8_t *data;
  size_t size;
  std::string &error;

  // From the end record, or from the Zip64 one where there is one.
  uint64_t entryCount = 0;
  uint64_t directoryOffset = 0;
  uint64_t directorySize = 0;
  /// Where the end records start; the central directory ends here.
  uint64_t endRecords = 0;
};

bool DirectoryReader::findEnd() {
  const std::string missing =
      "truncated or not a zip archive: no end-of-central-directory record";
  if (size < EndSize)
    return fail(missing);
  // The record is last but for a comment of up to 64 KiB; a candidate counts
  // only if its comment length reaches exactly to the end of the file.
  size_t lowest = size - EndSize > Max16 ? size - EndSize - Max16 : 0;
  size_t end = size - EndSize;
  while (get32(data + end) != EndSignature ||
         get16(data + end + 20) != size - end - EndSize) {
    if (end == lowest)
      return fail(missing);
    --end;
  }

  uint64_t disk = get16(data + end + 4);
  uint64_t directoryDisk = get16(data + end + 6);
  uint64_t entriesOnDisk = get16(data + end + 8);
  entryCount = get16(data + end + 10);
  directorySize = get32(data + end + 12);
  directoryOffset = get32(data + end + 16);
  endRecords = end;

  if (end >= Zip64LocatorSize &&
      get32(data + end - Zip64LocatorSize) == Zip64LocatorSignature) {
    const uint8_t *locator = data + end - Zip64LocatorSize;
    uint64_t recordDisk = get32(locator + 4);
    uint64_t record = get64(locator + 8);
    uint64_t disks = get32(locator + 16);
    if (recordDisk != 0 || disks > 1)
      return fail("multi-disk zip archives are not supported");
    uint64_t locatorOffset = end - Zip64LocatorSize;
    if (record > locatorOffset || locatorOffset - record < Zip64EndSize ||
        get32(data + record) != Zip64EndSignature)
      return fail("truncated or corrupt zip archive: no Zip64 "
                  "end-of-central-directory record at offset " +
                  std::to_string(record));
    const uint8_t *zip64End = data + record;
    disk = get32(zip64End + 16);
    directoryDisk = get32(zip64End + 20);
    entriesOnDisk = get64(zip64End + 24);
    entryCount = get64(zip64End + 32);
    directorySize = get64(zip64End + 40);
    directoryOffset = get64(zip64End + 48);
    endRecords = record;
  }

  if (disk != 0 || directoryDisk != 0 || entriesOnDisk != entryCount)
    return fail("multi-disk zip archives are not supported");
  return true;
}

bool DirectoryReader::read(std::vector<ZipEntry> &entries) {
  if (!findEnd())
    return false;
  if (directoryOffset > endRecords ||
      directorySize > endRecords - directoryOffset)
    return fail("truncated or corrupt zip archive: the central directory "
                "(offset " +
                std::to_string(directoryOffset) + ", size " +
                std::to_string(directorySize) + ") lies outside the file (" +
                std::to_string(size) + " bytes)");
  // Anything between the directory and its end record means a damaged
  // record, or data prepended to the archive, which would shift every
  // offset the directory holds.
  if (directoryOffset + directorySize != endRecords)
    return fail("corrupt zip archive: the central directory (offset " +
                std::to_string(directoryOffset) + ", size " +
                std::to_string(directorySize) +
                ") does not end where its end record starts (offset " +
                std::to_string(endRecords) + ")");
  // Bounds the allocation below, whatever the count claims.
  if (entryCount > directorySize / CentralHeaderSize)
    return fail("corrupt zip archive: " + std::to_string(entryCount) +
                " entries cannot fit in a central directory of " +
                std::to_string(directorySize) + " bytes");

  std::vector<ZipEntry> parsed(entryCount);
  std::unordered_set<std::string_view> names;
  names.reserve(entryCount);
  size_t pos = directoryOffset;
  size_t directoryEnd = directoryOffset + directorySize;
  for (size_t i = 0; i < entryCount; ++i) {
    if (!readEntry(i, pos, directoryEnd, parsed[i]))
      return false;
    // `parsed` is never resized, so the views stay valid.
    if (!names.insert(parsed[i].name).second)
      return fail("corrupt zip archive: duplicate entry " +
                  inQuotes(parsed[i].name));
  }
  if (pos != directoryEnd)
    return fail("corrupt zip archive: the central directory's " +
                std::to_string(entryCount) + " entries take " +
                std::to_string(pos - directoryOffset) +
                " bytes, but its end record says " +
                std::to_string(directorySize));
  entries = std::move(parsed);
  return true;
}

bool DirectoryReader::readEntry(size_t index, size_t &pos, size_t directoryEnd,
                                ZipEntry &entry) {
  const uint8_t *header = data + pos;
  if (directoryEnd - pos < CentralHeaderSize ||
      get32(header) != CentralHeaderSignature)
    return fail("corrupt zip archive: no central directory header for entry " +
                std::to_string(index) + " at offset " + std::to_string(pos));
  uint16_t flags = get16(header + 8);
  uint16_t method = get16(header + 10);
  uint32_t crc = get32(header + 16);
  uint64_t compressedSize = get32(header + 20);
  uint64_t entrySize = get32(header + 24);
  size_t nameSize = get16(header + 28);
  size_t extraSize = get16(header + 30);
  size_t commentSize = get16(header + 32);
  uint64_t diskStart = get16(header + 34);
  uint64_t localOffset = get32(header + 42);
  if (nameSize + extraSize + commentSize >
      directoryEnd - pos - CentralHeaderSize)
    return fail("corrupt zip archive: central directory entry " +
                std::to_string(index) +
                " runs past the end of the central directory");
  const uint8_t *extra = header + CentralHeaderSize + nameSize;
  std::string_view name(
      reinterpret_cast<const char *>(header) + CentralHeaderSize, nameSize);
  entry.name.assign(name);
  std::string what = "entry " + inQuotes(name);

  if (!readZip64Fields(extra, extraSize,
                       {&entrySize, &compressedSize, &localOffset}))
    return fail("corrupt zip archive: " + what +
                " lacks the Zip64 extra field its header calls for");
  if (diskStart != 0)
    return fail("multi-disk zip archives are not supported");
  if (flags & FlagEncrypted)
    return fail(what + " is encrypted; kiln archives are never encrypted");
  if (method != 0)
    return fail(what + " is compressed (method " + std::to_string(method) +
                "); kiln archives store entries uncompressed");
  if (compressedSize != entrySize)
    return fail("corrupt zip archive: " + what + " is stored, but its size " +
                std::to_string(entrySize) + " differs from its stored size " +
                std::to_string(compressedSize));

  // The local header must agree, or tools that read it (unzip, zipfile)
  // would see a different archive than the runtime does.
  if (localOffset > size || size - localOffset < LocalHeaderSize ||
      get32(data + localOffset) != LocalHeaderSignature)
    return fail("corrupt zip archive: " + what +
                " has no local header at offset " +
                std::to_string(localOffset));
  const uint8_t *local = data + localOffset;
  size_t localNameSize = get16(local + 26);
  size_t localExtraSize = get16(local + 28);
  if (localNameSize + localExtraSize > size - localOffset - LocalHeaderSize)
    return fail("truncated or corrupt zip archive: the local header of " +
                what + " extends past the end of the file");
  if (std::string_view(reinterpret_cast<const char *>(local) + LocalHeaderSize,
                       localNameSize) != name)
    return fail("corrupt zip archive: " + what +
                " has a local header that names " +
                inQuotes(std::string_view(reinterpret_cast<const char *>(local) +
                                            LocalHeaderSize,
                                        localNameSize)));
  bool agrees = get16(local + 8) == method;
  if (!(get16(local + 6) & FlagDataDescriptor)) {
    uint64_t localCompressed = get32(local + 18);
    uint64_t localSize = get32(local + 22);
    if (!readZip64Fields(local + LocalHeaderSize + localNameSize,
                         localExtraSize, {&localSize, &localCompressed}))
      return fail("corrupt zip archive: the local header of " + what +
                  " lacks the Zip64 extra field it calls for");
    agrees = agrees && get32(local + 14) == crc &&
             localCompressed == compressedSize && localSize == entrySize;
  }
  if (!agrees)
    return fail("corrupt zip archive: the local header of " + what +
                " disagrees with the central directory");

  uint64_t dataOffset =
      localOffset + LocalHeaderSize + localNameSize + localExtraSize;
  if (entrySize > size - dataOffset)
    return fail("truncated or corrupt zip archive: " + what +
                " extends past the end of the file (offset " +
                std::to_string(dataOffset) + " + size " +
                std::to_string(entrySize) + " > " + std::to_string(size) +
                " bytes)");
  if (dataOffset > directoryOffset || entrySize > directoryOffset - dataOffset)
    return fail("corrupt zip archive: " + what +
                " overlaps the central directory (offset " +
                std::to_string(dataOffset) + " + size " +
                std::to_string(entrySize) + " > " +
                std::to_string(directoryOffset) + ")");

  entry.offset = dataOffset;
  entry.size = entrySize;
  entry.crc32 = crc;
  pos += CentralHeaderSize + nameSize + extraSize + commentSize;
  return true;
}

} // namespace

bool readZipDirectory(const uint8_t *data, size_t size,
                      std::vector<ZipEntry> &entries, std::string &error) {
  entries.clear();
  error.clear();
  try {
    return DirectoryReader(data, size, error).read(entries);
  } catch (const std::exception &exception) {
    // Only allocation can throw here; the runtime promises no exceptions.
    entries.clear();
    error = std::string("cannot read the zip directory: ") + exception.what();
    return false;
  }
}

uint32_t crc32Of(const uint8_t *data, size_t size) {
  // zlib's length is a uInt, so huge entries go through in slices.
  uLong crc = crc32(0, nullptr, 0);
  while (size > 0) {
    uInt slice = uInt(std::min<size_t>(size, 1u << 30));
    crc = crc32(crc, data, slice);
    data += slice;
    size -= slice;
  }
  return uint32_t(crc);
}

} // namespace kiln
