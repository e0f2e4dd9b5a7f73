//===- ZipWriter.cpp - Writes the zip container of a .kiln archive --------===//
//
// The layout follows PKWARE's APPNOTE.TXT (sections 4.3 and 4.5). Only the
// parts a stored, single-disk archive needs are written; the reader in
// runtime/src/ZipReader.cpp accepts exactly this and what common zip tools
// produce for stored entries.
//
//===----------------------------------------------------------------------===//
#include "codegen/archive/ZipWriter.h"

#include <zlib.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace kiln {

namespace {

constexpr uint32_t LocalHeaderSignature = 0x04034b50;
constexpr uint32_t CentralHeaderSignature = 0x02014b50;
constexpr uint32_t EndSignature = 0x06054b50;
constexpr uint32_t Zip64EndSignature = 0x06064b50;
constexpr uint32_t Zip64LocatorSignature = 0x07064b50;
constexpr uint16_t Zip64ExtraId = 0x0001;
/// zipalign's id; readers skip extra fields they do not know.
constexpr uint16_t AlignmentExtraId = 0xd935;

constexpr size_t LocalHeaderSize = 30;
constexpr size_t CentralHeaderSize = 46;
constexpr size_t EndSize = 22;
constexpr size_t Zip64EndSize = 56;
constexpr size_t Zip64LocatorSize = 20;
/// Header id, data size, and the 16-bit alignment that zipalign records.
constexpr size_t AlignmentExtraMinSize = 6;

constexpr uint64_t Max16 = 0xffff;
constexpr uint64_t Max32 = 0xffffffff;

/// A fixed timestamp, 1980-01-01 00:00 (the earliest DOS date), keeps the
/// output independent of when it was written.
constexpr uint16_t DosTime = 0;
constexpr uint16_t DosDate = (0 << 9) | (1 << 5) | 1;

/// "Made by" Unix, so that unzip honours the external attributes below.
constexpr uint16_t VersionMadeBy = (3 << 8) | 45;
constexpr uint16_t VersionStored = 10;
constexpr uint16_t VersionZip64 = 45;
/// Bit 11: the name is UTF-8.
constexpr uint16_t FlagUtf8 = 1 << 11;
/// A regular file, rw-r--r--, in the high half as Unix zips keep it.
constexpr uint32_t ExternalAttributes = 0100644u << 16;

void put16(std::string &out, uint64_t value) {
  assert(value <= Max16);
  out.push_back(char(value & 0xff));
  out.push_back(char((value >> 8) & 0xff));
}

void put32(std::string &out, uint64_t value) {
  assert(value <= Max32);
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back(char((value >> shift) & 0xff));
}

void put64(std::string &out, uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8)
    out.push_back(char((value >> shift) & 0xff));
}

/// A 32-bit field, or the Zip64 marker that sends readers to the extra
/// field.
uint64_t field32(uint64_t value) { return value >= Max32 ? Max32 : value; }

uint32_t crc32Of(const std::string &data) {
  // zlib's length is a uInt, so huge entries go through in slices.
  uLong crc = crc32(0, nullptr, 0);
  const auto *bytes = reinterpret_cast<const Bytef *>(data.data());
  size_t left = data.size();
  while (left > 0) {
    uInt slice = uInt(std::min<size_t>(left, 1u << 30));
    crc = crc32(crc, bytes, slice);
    bytes += slice;
    left -= slice;
  }
  return uint32_t(crc);
}

bool isAscii(const std::string &name) {
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (unsigned char)c < 0x80; });
}

/// Where one entry lands in the file, worked out before anything is written
/// so that the output can be allocated once.
struct Layout {
  uint64_t headerOffset = 0;
  uint32_t crc = 0;
  bool zip64Size = false; // the size needs the Zip64 extra field
  size_t padding = 0;     // zero bytes after the alignment extra field

  size_t localExtraSize() const {
    return (zip64Size ? 4 + 16 : 0) + AlignmentExtraMinSize + padding;
  }
  size_t centralExtraSize() const {
    size_t fields = (zip64Size ? 16 : 0) + (headerOffset >= Max32 ? 8 : 0);
    return fields ? 4 + fields : 0;
  }
  uint16_t versionNeeded() const {
    return centralExtraSize() ? VersionZip64 : VersionStored;
  }
};

/// The unix umask, read without changing it (umask() cannot just read it,
/// and setting it is not thread-safe).
mode_t currentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
  return 022;
}

std::string errorText(int error) {
  return std::error_code(error, std::generic_category()).message();
}

} // namespace

void ZipWriter::add(std::string name, std::string data) {
  assert(name.size() <= Max16 && "zip entry names are at most 65535 bytes");
  [[maybe_unused]] bool inserted = names.insert(name).second;
  assert(inserted && "zip entry names must be unique");
  entries.push_back({std::move(name), std::move(data)});
}

std::string ZipWriter::finish() const {
  std::vector<Layout> layouts(entries.size());
  uint64_t offset = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry &entry = entries[i];
    Layout &layout = layouts[i];
    layout.headerOffset = offset;
    layout.crc = crc32Of(entry.data);
    layout.zip64Size = entry.data.size() >= Max32;
    uint64_t dataOffset =
        offset + LocalHeaderSize + entry.name.size() + layout.localExtraSize();
    layout.padding = (Alignment - dataOffset % Alignment) % Alignment;
    offset = dataOffset + layout.padding + entry.data.size();
  }

  uint64_t centralOffset = offset;
  uint64_t centralSize = 0;
  for (size_t i = 0; i < entries.size(); ++i)
    centralSize += CentralHeaderSize + entries[i].name.size() +
                   layouts[i].centralExtraSize();
  bool zip64End =
      entries.size() >= Max16 || centralOffset >= Max32 || centralSize >= Max32;
  uint64_t zip64EndOffset = centralOffset + centralSize;
  uint64_t total = zip64EndOffset +
                   (zip64End ? Zip64EndSize + Zip64LocatorSize : 0) + EndSize;

  std::string out;
  out.reserve(total);
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry &entry = entries[i];
    const Layout &layout = layouts[i];
    assert(out.size() == layout.headerOffset);
    uint64_t size = entry.data.size();
    put32(out, LocalHeaderSignature);
    put16(out, layout.zip64Size ? VersionZip64 : VersionStored);
    put16(out, isAscii(entry.name) ? 0 : FlagUtf8);
    put16(out, 0); // stored
    put16(out, DosTime);
    put16(out, DosDate);
    put32(out, layout.crc);
    put32(out, field32(size)); // compressed size
    put32(out, field32(size));
    put16(out, entry.name.size());
    put16(out, layout.localExtraSize());
    out += entry.name;
    // In a local header the Zip64 field must hold both sizes.
    if (layout.zip64Size) {
      put16(out, Zip64ExtraId);
      put16(out, 16);
      put64(out, size);
      put64(out, size);
    }
    put16(out, AlignmentExtraId);
    put16(out, AlignmentExtraMinSize - 4 + layout.padding);
    put16(out, Alignment);
    out.append(layout.padding, '\0');
    assert(out.size() % Alignment == 0);
    out += entry.data;
  }

  assert(out.size() == centralOffset);
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry &entry = entries[i];
    const Layout &layout = layouts[i];
    uint64_t size = entry.data.size();
    put32(out, CentralHeaderSignature);
    put16(out, VersionMadeBy);
    put16(out, layout.versionNeeded());
    put16(out, isAscii(entry.name) ? 0 : FlagUtf8);
    put16(out, 0); // stored
    put16(out, DosTime);
    put16(out, DosDate);
    put32(out, layout.crc);
    put32(out, field32(size)); // compressed size
    put32(out, field32(size));
    put16(out, entry.name.size());
    put16(out, layout.centralExtraSize());
    put16(out, 0); // comment length
    put16(out, 0); // disk number
    put16(out, 0); // internal attributes
    put32(out, ExternalAttributes);
    put32(out, field32(layout.headerOffset));
    out += entry.name;
    // Only the fields whose 32-bit slot holds the marker, in this order.
    if (size_t extra = layout.centralExtraSize()) {
      put16(out, Zip64ExtraId);
      put16(out, extra - 4);
      if (layout.zip64Size) {
        put64(out, size);
        put64(out, size);
      }
      if (layout.headerOffset >= Max32)
        put64(out, layout.headerOffset);
    }
  }

  assert(out.size() == zip64EndOffset);
  if (zip64End) {
    put32(out, Zip64EndSignature);
    put64(out, Zip64EndSize - 12); // the size of what follows this field
    put16(out, VersionMadeBy);
    put16(out, VersionZip64);
    put32(out, 0); // this disk
    put32(out, 0); // the disk holding the central directory
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, centralSize);
    put64(out, centralOffset);

    put32(out, Zip64LocatorSignature);
    put32(out, 0); // the disk holding the Zip64 end record
    put64(out, zip64EndOffset);
    put32(out, 1); // disks in all
  }

  put32(out, EndSignature);
  put16(out, 0); // this disk
  put16(out, 0); // the disk holding the central directory
  put16(out, std::min<uint64_t>(entries.size(), Max16));
  put16(out, std::min<uint64_t>(entries.size(), Max16));
  put32(out, field32(centralSize));
  put32(out, field32(centralOffset));
  put16(out, 0); // comment length
  assert(out.size() == total);
  return out;
}

namespace {

/// Writes all of `bytes` to `fd`; 0 or the errno of the failure.
int writeAll(int fd, const std::string &bytes) {
  const char *next = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t written = write(fd, next, left);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    next += written;
    left -= size_t(written);
  }
  return 0;
}

/// Writes `bytes` into the existing device or FIFO `path`. O_NONBLOCK makes
/// opening a FIFO without a reader fail (ENXIO) rather than wait for one;
/// the writes themselves block as usual.
int writeInPlace(const std::string &path, const std::string &bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return errno;
  int flags = fcntl(fd, F_GETFL);
  int error = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0
                  ? errno
                  : writeAll(fd, bytes);
  if (close(fd) != 0 && error == 0)
    error = errno;
  return error;
}

} // namespace

std::string writeFileAtomically(const std::string &path,
                                const std::string &bytes) {
  auto failure = [&](int error) {
    return "cannot write '" + path + "': " + errorText(error);
  };

  struct stat existing;
  if (stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      !S_ISDIR(existing.st_mode)) {
    int error = writeInPlace(path, bytes);
    return error == 0 ? std::string() : failure(error);
  }

  // Beside the target, so that rename() stays within one file system.
  std::string tempPath = path + ".tmp.XXXXXX";
  int fd = mkostemp(tempPath.data(), O_CLOEXEC);
  if (fd < 0)
    return failure(errno);
  auto abandon = [&](int error) {
    if (fd >= 0)
      close(fd);
    unlink(tempPath.c_str());
    return failure(error);
  };

  // mkstemp creates the file 0600; the archive should get the usual mode.
  if (fchmod(fd, 0666 & ~currentUmask()) != 0)
    return abandon(errno);
  if (int error = writeAll(fd, bytes))
    return abandon(error);
  if (fsync(fd) != 0)
    return abandon(errno);
  int closed = close(fd);
  fd = -1;
  if (closed != 0)
    return abandon(errno);
  if (rename(tempPath.c_str(), path.c_str()) != 0)
    return abandon(errno);

  // Make the rename itself durable. The file is complete and in place
  // already, so a failure here is not worth reporting.
  size_t slash = path.rfind('/');
  std::string directory = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  int directoryFd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directoryFd >= 0) {
    fsync(directoryFd);
    close(directoryFd);
  }
  return {};
}

} // namespace kiln
