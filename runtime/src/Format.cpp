//===- Format.cpp - Text for tensors and Python scalars, as PyTorch ------===//
//
// formatTensor is a transcription of torch/_tensor_str.py (PyTorch 1.13)
// for dense CPU tensors with the default print options; the Python names
// (_Formatter, _vector_str, _add_suffixes, ...) are noted where each piece
// comes from, so the two can be compared side by side. Numbers go through
// fmt, whose format specs are Python's ("{:.4f}", "{:.4e}", "{}" for the
// shortest round-trip digits) and which, unlike printf, rounds exactly and
// never depends on the process locale.
//
//===----------------------------------------------------------------------===//

#include "kiln/Format.h"
#include "kiln/HalfFloat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using namespace kiln;

namespace {

// torch._tensor_str.PRINT_OPTS defaults.
constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

bool isFloating(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 ||
         dtype == DType::BF16;
}

/// Element `index` (in row-major order) as the Python float that .tolist()
/// would give; f16 and bf16 widen through f32 as `self.float()` does.
double floatAt(const Tensor &tensor, int64_t index) {
  switch (tensor.dtype()) {
  case DType::F32:
    return tensor.data<float>()[index];
  case DType::F64:
    return tensor.data<double>()[index];
  case DType::F16:
    return halfToFloat(tensor.data<uint16_t>()[index]);
  case DType::BF16:
    return bfloat16ToFloat(tensor.data<uint16_t>()[index]);
  default:
    return 0;
  }
}

/// `"{}".format(x)` for an element of an integer or bool tensor.
std::string integralAt(const Tensor &tensor, int64_t index) {
  switch (tensor.dtype()) {
  case DType::I32:
    return fmt::to_string(tensor.data<int32_t>()[index]);
  case DType::I64:
    return fmt::to_string(tensor.data<int64_t>()[index]);
  case DType::Bool:
    return formatBool(tensor.data<uint8_t>()[index] != 0);
  default:
    return "";
  }
}

/// Python's "{:.Nf}" (fixed) or "{:.Ne}" (scientific) for a float.
std::string formatFixedOrSci(double value, int precision, bool scientific) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  return scientific ? fmt::format("{:.{}e}", value, precision)
                    : fmt::format("{:.{}f}", value, precision);
}

std::string padLeft(const std::string &text, size_t width) {
  return fmt::format("{:>{}}", text, width);
}

/// Row-major element strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

/// The indices along one dimension that are printed: all of them, or the
/// first and last kEdgeItems when summarizing.
std::vector<int64_t> shownIndices(int64_t size, bool summarize) {
  std::vector<int64_t> indices;
  if (summarize && size > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i)
      indices.push_back(i);
    for (int64_t i = size - kEdgeItems; i < size; ++i)
      indices.push_back(i);
  } else {
    for (int64_t i = 0; i < size; ++i)
      indices.push_back(i);
  }
  return indices;
}

class TensorPrinter {
public:
  explicit TensorPrinter(const Tensor &tensor)
      : tensor(tensor), shape(tensor.shape()), strides(stridesOf(shape)),
        summarize(tensor.numel() > kThreshold),
        floating(isFloating(tensor.dtype())) {
    std::vector<int64_t> visible;
    collectVisible(0, 0, visible);
    initFormatter(visible);
  }

  /// _tensor_str_with_formatter for the sub-tensor at `dim`, `offset`.
  std::string str(size_t dim, int64_t offset, int64_t indent) const {
    if (shape.empty())
      return format(offset);
    if (dim + 1 == shape.size())
      return vectorStr(offset, indent);
    std::vector<std::string> slices;
    int64_t size = shape[dim];
    for (int64_t i : shownIndices(size, summarize)) {
      if (summarize && size > 2 * kEdgeItems && i == size - kEdgeItems)
        slices.push_back("...");
      slices.push_back(str(dim + 1, offset + i * strides[dim], indent + 1));
    }
    size_t subRank = shape.size() - dim;
    std::string separator = "," + std::string(subRank - 1, '\n') +
                            std::string(static_cast<size_t>(indent + 1), ' ');
    return fmt::format("[{}]", fmt::join(slices, separator));
  }

private:
  /// The elements get_summarized_data keeps (all of them when not
  /// summarizing); the formatter's widths and modes come from these only.
  void collectVisible(size_t dim, int64_t offset,
                      std::vector<int64_t> &out) const {
    if (dim == shape.size()) {
      out.push_back(offset);
      return;
    }
    for (int64_t i : shownIndices(shape[dim], summarize))
      collectVisible(dim + 1, offset + i * strides[dim], out);
  }

  /// _Formatter.__init__.
  void initFormatter(const std::vector<int64_t> &visible) {
    if (!floating) {
      for (int64_t index : visible)
        maxWidth = std::max(maxWidth, integralAt(tensor, index).size());
      return;
    }
    std::vector<double> values;
    for (int64_t index : visible) {
      double value = floatAt(tensor, index);
      if (std::isfinite(value) && value != 0)
        values.push_back(value);
    }
    if (values.empty())
      return;
    double minAbs = std::fabs(values[0]), maxAbs = minAbs;
    for (double value : values) {
      minAbs = std::min(minAbs, std::fabs(value));
      maxAbs = std::max(maxAbs, std::fabs(value));
      if (value != std::ceil(value))
        intMode = false;
    }
    bool wide = maxAbs / minAbs > 1000.0 || maxAbs > 1.0e8;
    sciMode = intMode ? wide : wide || minAbs < 1.0e-4;
    for (double value : values) {
      size_t width;
      if (sciMode)
        width = formatFixedOrSci(value, kPrecision, true).size();
      else if (intMode)
        width = formatFixedOrSci(value, 0, false).size() + 1;
      else
        width = formatFixedOrSci(value, kPrecision, false).size();
      maxWidth = std::max(maxWidth, width);
    }
  }

  /// _Formatter.format.
  std::string format(int64_t index) const {
    if (!floating)
      return padLeft(integralAt(tensor, index), maxWidth);
    double value = floatAt(tensor, index);
    std::string text;
    if (sciMode) {
      text = formatFixedOrSci(value, kPrecision, true);
    } else if (intMode) {
      text = formatFixedOrSci(value, 0, false);
      if (std::isfinite(value))
        text += ".";
    } else {
      text = formatFixedOrSci(value, kPrecision, false);
    }
    return padLeft(text, maxWidth);
  }

  /// _vector_str.
  std::string vectorStr(int64_t offset, int64_t indent) const {
    int64_t elementLength = static_cast<int64_t>(maxWidth) + 2;
    // Python floors a true division, so a negative quotient rounds down.
    int64_t perLine = static_cast<int64_t>(
        std::floor(static_cast<double>(kLineWidth - indent) /
                   static_cast<double>(elementLength)));
    perLine = std::max<int64_t>(1, perLine);

    int64_t size = shape.back();
    int64_t stride = strides.back();
    std::vector<std::string> data;
    for (int64_t i : shownIndices(size, summarize)) {
      if (summarize && size > 2 * kEdgeItems && i == size - kEdgeItems)
        data.push_back(" ...");
      data.push_back(format(offset + i * stride));
    }
    std::vector<std::string> lines;
    for (size_t start = 0; start < data.size();
         start += static_cast<size_t>(perLine)) {
      size_t end = std::min(data.size(), start + static_cast<size_t>(perLine));
      lines.push_back(fmt::format(
          "{}", fmt::join(data.begin() + start, data.begin() + end, ", ")));
    }
    return fmt::format("[{}]",
                       fmt::join(lines, fmt::format(",\n{:<{}}", "", indent + 1)));
  }

  const Tensor &tensor;
  const std::vector<int64_t> &shape;
  std::vector<int64_t> strides;
  bool summarize;
  bool floating;
  bool intMode = true;
  bool sciMode = false;
  size_t maxWidth = 1;
};

std::string torchDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "torch.float32";
  case DType::F64:
    return "torch.float64";
  case DType::F16:
    return "torch.float16";
  case DType::BF16:
    return "torch.bfloat16";
  case DType::I32:
    return "torch.int32";
  case DType::I64:
    return "torch.int64";
  case DType::Bool:
    return "torch.bool";
  }
  return "";
}

/// str(tuple(shape)).
std::string shapeTuple(const std::vector<int64_t> &shape) {
  return fmt::format("({}{})", fmt::join(shape, ", "),
                     shape.size() == 1 ? "," : "");
}

/// _add_suffixes, including its measure of the last line, which counts two
/// more characters than the line has when the text has no newline.
std::string addSuffixes(std::string text,
                        const std::vector<std::string> &suffixes,
                        size_t indent) {
  size_t newline = text.rfind('\n');
  int64_t lastLineLength =
      static_cast<int64_t>(text.size()) -
      (newline == std::string::npos ? -1 : static_cast<int64_t>(newline)) + 1;
  for (const std::string &suffix : suffixes) {
    int64_t suffixLength = static_cast<int64_t>(suffix.size());
    if (lastLineLength + suffixLength + 2 > kLineWidth) {
      text += fmt::format(",\n{:<{}}{}", "", indent, suffix);
      lastLineLength = static_cast<int64_t>(indent) + suffixLength;
    } else {
      text += ", " + suffix;
      lastLineLength += suffixLength + 2;
    }
  }
  return text + ")";
}

} // namespace

std::string kiln::formatTensor(const Tensor &tensor, Device device) {
  // Its elements are on the GPU, which this cannot read.
  if (tensor.device() != Device::CPU)
    return "tensor(<on cuda>)";
  const std::string prefix = "tensor(";
  std::vector<std::string> suffixes;
  // PyTorch names a tensor's device first, unless it is the CPU.
  if (device == Device::CUDA)
    suffixes.push_back("device='cuda:0'");
  std::string body;
  // A shape no tensor can have (numel() -1, only a borrowed tensor can
  // claim one) prints as empty rather than reading memory it cannot own.
  if (tensor.numel() <= 0) {
    // An empty tensor shows its shape unless it is (0,), and its dtype
    // unless float32, since no element hints at it.
    if (tensor.rank() != 1)
      suffixes.push_back("size=" + shapeTuple(tensor.shape()));
    if (tensor.dtype() != DType::F32)
      suffixes.push_back("dtype=" + torchDTypeName(tensor.dtype()));
    body = "[]";
  } else {
    DType dtype = tensor.dtype();
    if (dtype != DType::F32 && dtype != DType::I64 && dtype != DType::Bool)
      suffixes.push_back("dtype=" + torchDTypeName(dtype));
    body = TensorPrinter(tensor).str(0, 0, static_cast<int64_t>(prefix.size()));
  }
  return addSuffixes(prefix + body, suffixes, prefix.size());
}

std::string kiln::formatFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  // fmt's "{}" is repr's shortest round-trip digits, switching to an
  // exponent at the same points (below 1e-4, from 1e16); only repr's ".0"
  // on an integral value is missing.
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

std::string kiln::formatInt(int64_t value) { return fmt::to_string(value); }

std::string kiln::formatBool(bool value) { return value ? "True" : "False"; }
