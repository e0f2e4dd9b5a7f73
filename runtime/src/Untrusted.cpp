//===- Untrusted.cpp - Rules for reading files a user names ---------------===//

#include "Untrusted.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace kiln {

std::string systemError(int error) {
  std::string text = std::strerror(error);
  if (!text.empty())
    text[0] =
        static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string openRegularFile(const std::string &path, RegularFile &file) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return "cannot open: " + systemError(errno);
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return "not a regular file";
  }
  // Reads of a regular file never block anyway; clearing the flag keeps
  // the descriptor an ordinary one for stdio and mmap.
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    int error = errno;
    close(fd);
    return "cannot open: " + systemError(error);
  }
  file.fd = fd;
  file.size = static_cast<uint64_t>(info.st_size);
  return "";
}

MappedFile::~MappedFile() {
  if (size)
    munmap(const_cast<uint8_t *>(data), size);
}

std::string MappedFile::open(const std::string &path) {
  RegularFile file;
  std::string error = openRegularFile(path, file);
  if (!error.empty())
    return error;
  // mmap refuses an empty range; an empty file simply has no data.
  if (file.size > 0) {
    void *mapping =
        mmap(nullptr, size_t(file.size), PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping == MAP_FAILED) {
      int mapError = errno;
      close(file.fd);
      return "cannot map: " + systemError(mapError);
    }
    data = static_cast<const uint8_t *>(mapping);
    size = size_t(file.size);
  }
  close(file.fd);
  return "";
}

std::string MappedFile::copy(const void *bytes, size_t count) {
  if (count == 0)
    return "";
  void *mapping = mmap(nullptr, count, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    return "cannot map " + std::to_string(count) +
           " bytes: " + systemError(errno);
  std::memcpy(mapping, bytes, count);
  // Read-only like a mapped file: nothing may write the weights in place.
  mprotect(mapping, count, PROT_READ);
  data = static_cast<const uint8_t *>(mapping);
  size = count;
  return "";
}

std::string readRegularFile(const std::string &path, std::string &bytes,
                            uint64_t maxBytes) {
  RegularFile file;
  std::string error = openRegularFile(path, file);
  if (!error.empty())
    return error;
  if (file.size > maxBytes) {
    close(file.fd);
    return "the file has " + std::to_string(file.size) +
           " bytes, more than the " + std::to_string(maxBytes) +
           " this reader accepts";
  }
  bytes.resize(file.size);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::read(file.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = n < 0 ? "cannot read: " + systemError(errno)
                    : "the file shrank while being read";
      break;
    }
    done += size_t(n);
  }
  close(file.fd);
  return error;
}

namespace {

/// The length of the valid UTF-8 sequence at text[pos], or 0 if there is
/// none (RFC 3629: no overlong forms, surrogates or values past U+10FFFF).
size_t utf8Length(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) -> unsigned {
    return pos + i < text.size() ? static_cast<unsigned char>(text[pos + i])
                                 : 0;
  };
  unsigned lead = byte(0);
  size_t length;
  unsigned low = 0x80, high = 0xbf; // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    low = lead == 0xe0 ? 0xa0 : 0x80;
    high = lead == 0xed ? 0x9f : 0xbf;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    low = lead == 0xf0 ? 0x90 : 0x80;
    high = lead == 0xf4 ? 0x8f : 0xbf;
  } else {
    return 0;
  }
  if (byte(1) < low || byte(1) > high)
    return 0;
  for (size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xbf)
      return 0;
  return length;
}

} // namespace

std::string escaped(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  auto escape = [&](unsigned char c) {
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 0xf];
  };
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f)
        escape(c);
      else if (c == '\\')
        out += "\\\\";
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    size_t length = utf8Length(text, i);
    // U+0080..U+009F (C2 80..C2 9F) are C1 controls, which some
    // terminals obey.
    bool control =
        length == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if (length == 0 || control) {
      size_t count = length ? length : 1;
      for (size_t k = 0; k < count; ++k)
        escape(static_cast<unsigned char>(text[i + k]));
      i += count;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string inQuotes(std::string_view text) { return "'" + escaped(text) + "'"; }

} // namespace kiln
