//===- Npy.cpp - numpy .npy files -----------------------------------------===//
//
// The format is numpy/lib/format.py's: magic, version, header length, a
// Python dict literal padded to 64 bytes, then the raw data. The writer
// reproduces numpy 1.24's bytes exactly (including the spare space numpy
// leaves after the dict for growing the first axis), so files are
// interchangeable and diffable with numpy.save output.
//
//===----------------------------------------------------------------------===//

#include "kiln/Npy.h"
#include "kiln/abi.h"

#include "ApiBoundary.h"
#include "Untrusted.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string_view>

#include <unistd.h>

using namespace kiln;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kArrayAlign = 64;
// numpy.save pads the dict so the first axis can grow in place up to this
// many digits; matching it keeps our files byte-identical to numpy's.
constexpr size_t kGrowthAxisMaxDigits = 21;
// numpy 2's NPY_MAXDIMS (kiln/abi.h). It also bounds the recursion of
// formatTensor on a tensor read from a file.
constexpr size_t kMaxRank = KILN_MAX_RANK;
// numpy.load refuses longer headers (max_header_size) as unsafe to parse.
constexpr uint64_t kMaxHeaderLength = 10000;

constexpr bool kHostLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

struct FileCloser {
  void operator()(std::FILE *file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

Error fail(const std::string &path, const std::string &what) {
  return Error{path + ": " + what};
}

//===----------------------------------------------------------------------===//
// Header dictionary parsing
//===----------------------------------------------------------------------===//

/// The three values a valid header holds; anything else is rejected.
struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
  // A list descr (a structured dtype) is recognised only to report it.
  bool structuredDescr = false;
};

/// A recursive-descent reader for the small subset of Python literals that
/// numpy writes: a dict of str keys to str, bool, or tuple-of-int values.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  /// Returns an empty string on success, else what went wrong.
  std::string parse(Header &header) {
    skipSpace();
    if (!consume('{'))
      return "expected '{'";
    skipSpace();
    while (!consume('}')) {
      std::string key;
      if (!parseString(key))
        return "expected a string key";
      skipSpace();
      if (!consume(':'))
        return "expected ':' after " + inQuotes(key);
      skipSpace();
      std::string problem = parseValue(key, header);
      if (!problem.empty())
        return problem;
      skipSpace();
      if (consume(',')) {
        skipSpace();
        continue;
      }
      if (!consume('}'))
        return "expected ',' or '}'";
      break;
    }
    skipSpace();
    if (pos != text.size())
      return "unexpected text after the dictionary";
    if (!header.descr && !header.structuredDescr)
      return "missing key 'descr'";
    if (!header.fortranOrder)
      return "missing key 'fortran_order'";
    if (!header.shape)
      return "missing key 'shape'";
    return "";
  }

private:
  std::string parseValue(const std::string &key, Header &header) {
    if (key == "descr") {
      if (peek() == '[') {
        header.structuredDescr = true;
        return skipBracketed() ? "" : "unbalanced brackets in 'descr'";
      }
      std::string descr;
      if (!parseString(descr))
        return "'descr' is not a string";
      header.descr = descr;
      return "";
    }
    if (key == "fortran_order") {
      if (consumeWord("True"))
        header.fortranOrder = true;
      else if (consumeWord("False"))
        header.fortranOrder = false;
      else
        return "'fortran_order' is not True or False";
      return "";
    }
    if (key == "shape") {
      std::vector<int64_t> shape;
      std::string problem = parseShape(shape);
      if (!problem.empty())
        return problem;
      header.shape = std::move(shape);
      return "";
    }
    return "unexpected key " + inQuotes(key);
  }

  std::string parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return "'shape' is not a tuple";
    skipSpace();
    bool sawComma = false;
    while (!consume(')')) {
      int64_t dim;
      if (!parseInt(dim))
        return "'shape' holds a value that is not an integer";
      if (dim < 0)
        return "'shape' has a negative dimension";
      if (shape.size() == kMaxRank)
        return "'shape' has more than " + std::to_string(kMaxRank) + " dims";
      shape.push_back(dim);
      skipSpace();
      if (consume(',')) {
        sawComma = true;
        skipSpace();
        continue;
      }
      if (!consume(')'))
        return "expected ',' or ')' in 'shape'";
      break;
    }
    // "(3)" is a parenthesized int in Python, not a 1-tuple.
    if (shape.size() == 1 && !sawComma)
      return "'shape' is not a tuple";
    return "";
  }

  bool parseInt(int64_t &value) {
    bool negative = consume('-');
    size_t start = pos;
    uint64_t magnitude = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      unsigned digit = static_cast<unsigned>(text[pos] - '0');
      if (magnitude > (UINT64_MAX - digit) / 10)
        return false;
      magnitude = magnitude * 10 + digit;
      ++pos;
    }
    if (pos == start || magnitude > static_cast<uint64_t>(INT64_MAX))
      return false;
    // Python 2 wrote longs as "3L"; numpy still accepts them.
    if (pos < text.size() && (text[pos] == 'L' || text[pos] == 'l'))
      ++pos;
    value = negative ? -static_cast<int64_t>(magnitude)
                     : static_cast<int64_t>(magnitude);
    return true;
  }

  bool parseString(std::string &out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return false;
    size_t end = text.find(quote, pos + 1);
    if (end == std::string_view::npos)
      return false;
    out = std::string(text.substr(pos + 1, end - pos - 1));
    pos = end + 1;
    return true;
  }

  bool skipBracketed() {
    int depth = 0;
    for (; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '[' || c == '(')
        ++depth;
      else if ((c == ']' || c == ')') && --depth == 0) {
        ++pos;
        return true;
      }
    }
    return false;
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    size_t after = pos + word.size();
    if (after < text.size() &&
        (std::isalnum(static_cast<unsigned char>(text[after])) ||
         text[after] == '_'))
      return false;
    pos = after;
    return true;
  }

  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  bool consume(char c) {
    if (peek() != c || pos >= text.size())
      return false;
    ++pos;
    return true;
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  std::string_view text;
  size_t pos = 0;
};

/// Maps a descr such as '<f4' to a DType; `swap` says whether the data's
/// byte order differs from the host's.
bool parseDescr(std::string_view descr, DType &dtype, bool &swap) {
  if (descr.size() != 3)
    return false;
  char order = descr[0];
  std::string_view kind = descr.substr(1);
  if (kind == "f4")
    dtype = DType::F32;
  else if (kind == "f8")
    dtype = DType::F64;
  else if (kind == "f2")
    dtype = DType::F16;
  else if (kind == "i4")
    dtype = DType::I32;
  else if (kind == "i8")
    dtype = DType::I64;
  else if (kind == "b1")
    dtype = DType::Bool;
  else
    return false;
  // '|' (not applicable) and '=' (native) both mean host order to numpy.
  if (order == '<')
    swap = !kHostLittleEndian;
  else if (order == '>')
    swap = kHostLittleEndian;
  else if (order == '|' || order == '=')
    swap = false;
  else
    return false;
  return true;
}

std::string shapeRepr(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

/// Reorders column-major `src` into row-major `dst`.
void fortranToC(const char *src, char *dst, const std::vector<int64_t> &shape,
                size_t elementSize) {
  size_t rank = shape.size();
  // Column-major strides, in elements.
  std::vector<int64_t> srcStride(rank, 1);
  for (size_t k = 1; k < rank; ++k)
    srcStride[k] = srcStride[k - 1] * shape[k - 1];
  std::vector<int64_t> index(rank, 0);
  // readNpy has checked the shape, each 0 counted as 1, so neither the
  // strides above nor the count wrap.
  uint64_t total;
  checkedByteSize(shape, 1, total);
  int64_t srcOffset = 0;
  for (uint64_t out = 0; out < total; ++out) {
    std::memcpy(dst + out * elementSize, src + srcOffset * elementSize,
                elementSize);
    // Advance the row-major odometer, keeping srcOffset in step.
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < shape[k]) {
        srcOffset += srcStride[k];
        break;
      }
      srcOffset -= (shape[k] - 1) * srcStride[k];
      index[k] = 0;
    }
  }
}

void byteSwap(char *data, int64_t count, size_t elementSize) {
  for (int64_t i = 0; i < count; ++i) {
    char *element = data + i * elementSize;
    for (size_t lo = 0, hi = elementSize - 1; lo < hi; ++lo, --hi)
      std::swap(element[lo], element[hi]);
  }
}

uint32_t readLittleEndian(const unsigned char *bytes, size_t count) {
  uint32_t value = 0;
  for (size_t i = count; i-- > 0;)
    value = (value << 8) | bytes[i];
  return value;
}

} // namespace

namespace {

Result<Tensor> readNpyFile(const std::string &path) {
  RegularFile opened;
  std::string error = openRegularFile(path, opened);
  if (!error.empty())
    return fail(path, error);
  FilePtr file(fdopen(opened.fd, "rb"));
  if (!file) {
    int fdopenError = errno;
    close(opened.fd);
    return fail(path, "cannot open: " + systemError(fdopenError));
  }
  // The data size is checked against the file size before anything is
  // allocated, so a corrupt shape cannot ask for terabytes.
  uint64_t fileSize = opened.size;

  unsigned char prefix[12];
  size_t got = std::fread(prefix, 1, 8, file.get());
  // fopen succeeds on a directory; only the first read tells.
  if (std::ferror(file.get()))
    return fail(path, "cannot read: " + systemError(errno));
  if (got < kMagicLen || std::memcmp(prefix, kMagic, kMagicLen) != 0)
    return fail(path, "not a .npy file: bad magic");
  if (got < 8)
    return fail(path, "truncated header");
  unsigned major = prefix[6], minor = prefix[7];
  if ((major < 1 || major > 3) || minor != 0)
    return fail(path, "unsupported .npy version " + std::to_string(major) +
                          "." + std::to_string(minor));
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (std::fread(prefix + 8, 1, lengthBytes, file.get()) != lengthBytes)
    return fail(path, "truncated header");
  uint64_t headerLength = readLittleEndian(prefix + 8, lengthBytes);
  if (headerLength > kMaxHeaderLength)
    return fail(path, "header of " + std::to_string(headerLength) +
                          " bytes is longer than the " +
                          std::to_string(kMaxHeaderLength) +
                          " numpy.load reads");
  uint64_t dataOffset = 8 + lengthBytes + headerLength;
  if (dataOffset > fileSize)
    return fail(path, "truncated header: expected " +
                          std::to_string(headerLength) + " bytes, found " +
                          std::to_string(fileSize - 8 - lengthBytes));

  std::string headerText(headerLength, '\0');
  if (std::fread(headerText.data(), 1, headerLength, file.get()) !=
      headerLength)
    return fail(path, "truncated header");
  Header header;
  std::string problem = HeaderParser(headerText).parse(header);
  if (!problem.empty())
    return fail(path, "malformed header: " + problem);
  if (header.structuredDescr)
    return fail(path, "unsupported dtype: structured arrays are not supported");

  DType dtype;
  bool swap = false;
  if (!parseDescr(*header.descr, dtype, swap))
    return fail(path, "unsupported dtype " + inQuotes(*header.descr) +
                          " (supported: <f2, <f4, <f8, <i4, <i8, |b1)");

  // The runtime's rule for inputs (kiln/abi.h): with each 0 counted as 1,
  // the dims span at most 2^47 bytes, or compiled code could derive a size
  // that wraps from an empty array.
  const std::vector<int64_t> &shape = *header.shape;
  uint64_t elementSize = dtypeSize(dtype), expected, bound;
  if (!checkedByteSize(shape, elementSize, bound, /*zeroAsOne=*/true))
    return fail(path, "shape " + shapeRepr(shape) +
                          " is too large: kiln reads arrays whose dims, with "
                          "each 0 counted as 1, span at most 2^47 bytes");
  checkedByteSize(shape, elementSize, expected);
  uint64_t available = fileSize - dataOffset;
  if (available < expected)
    return fail(path, "truncated data: expected " + std::to_string(expected) +
                          " bytes, found " + std::to_string(available));

  std::optional<Tensor> tensor;
  std::unique_ptr<char[]> staging;
  try {
    tensor = Tensor::zeros(dtype, shape);
    if (*header.fortranOrder && shape.size() > 1)
      staging.reset(new char[expected]);
  } catch (const std::bad_alloc &) {
    return fail(path, "out of memory for " + std::to_string(expected) +
                          " bytes of data");
  }
  // fortranToC and the loops below count in elements.
  int64_t count = tensor->numel();
  char *target = staging ? staging.get() : tensor->data<char>();
  size_t read = expected ? std::fread(target, 1, expected, file.get()) : 0;
  if (read != expected)
    return fail(path, "truncated data: expected " + std::to_string(expected) +
                          " bytes, found " + std::to_string(read));

  if (staging)
    fortranToC(staging.get(), tensor->data<char>(), shape, elementSize);
  if (swap)
    byteSwap(tensor->data<char>(), count, elementSize);
  // Compiled code assumes bools are exactly 0 or 1; numpy does not check.
  if (dtype == DType::Bool) {
    auto *bytes = tensor->data<unsigned char>();
    for (int64_t i = 0; i < count; ++i)
      bytes[i] = bytes[i] != 0;
  }
  return std::move(*tensor);
}

Result<void> writeNpyFile(const std::string &path, const Tensor &tensor) {
  const char order = kHostLittleEndian ? '<' : '>';
  std::string descr;
  switch (tensor.dtype()) {
  case DType::F32:
    descr = {order, 'f', '4'};
    break;
  case DType::F64:
    descr = {order, 'f', '8'};
    break;
  case DType::F16:
    descr = {order, 'f', '2'};
    break;
  case DType::I32:
    descr = {order, 'i', '4'};
    break;
  case DType::I64:
    descr = {order, 'i', '8'};
    break;
  case DType::Bool:
    descr = "|b1";
    break;
  case DType::BF16:
    return fail(path, "cannot write bf16: numpy has no bfloat16 dtype "
                      "(convert to f32 first)");
  }
  const std::vector<int64_t> &shape = tensor.shape();
  for (int64_t dim : shape)
    if (dim < 0)
      return fail(path, "cannot write a tensor with a negative dimension");
  uint64_t bytes;
  if (!checkedByteSize(shape, dtypeSize(tensor.dtype()), bytes))
    return fail(path, "cannot write a tensor of more than 2^47 bytes");
  if (bytes && !tensor.data())
    return fail(path, "cannot write a tensor without data");

  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, 'shape': " + shapeRepr(shape) +
                     ", }";
  if (!shape.empty())
    dict.append(kGrowthAxisMaxDigits - std::to_string(shape[0]).size(), ' ');
  // Version 1.0 stores the header length in 16 bits; only a very high rank
  // needs 2.0.
  size_t lengthBytes = 2;
  size_t padding =
      kArrayAlign - (8 + lengthBytes + dict.size() + 1) % kArrayAlign;
  if (dict.size() + 1 + padding > 0xffff) {
    lengthBytes = 4;
    padding = kArrayAlign - (8 + lengthBytes + dict.size() + 1) % kArrayAlign;
  }
  uint64_t headerLength = dict.size() + padding + 1;
  std::string out(kMagic, kMagicLen);
  out += static_cast<char>(lengthBytes == 2 ? 1 : 2);
  out += '\0';
  for (size_t i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((headerLength >> (8 * i)) & 0xff);
  out += dict;
  out.append(padding, ' ');
  out += '\n';

  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return fail(path, "cannot open for writing: " + systemError(errno));
  if (std::fwrite(out.data(), 1, out.size(), file.get()) != out.size() ||
      (bytes && std::fwrite(tensor.data(), 1, bytes, file.get()) != bytes))
    return fail(path, "write failed: " + systemError(errno));
  if (std::fclose(file.release()) != 0)
    return fail(path, "write failed: " + systemError(errno));
  return {};
}

} // namespace

Result<Tensor> kiln::readNpy(const std::string &path) {
  return catchAll<Tensor>(path + ": ", [&] { return readNpyFile(path); });
}

Result<void> kiln::writeNpy(const std::string &path, const Tensor &tensor) {
  if (tensor.device() != Device::CPU)
    return Error{path + ": a CUDA tensor's elements are on the GPU; copy it "
                        "to the CPU first (kiln::copyTo)",
                 ErrorKind::InvalidArgument};
  return catchAll<void>(path + ": ",
                        [&] { return writeNpyFile(path, tensor); });
}
