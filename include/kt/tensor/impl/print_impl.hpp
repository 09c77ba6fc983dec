#pragma once
// The layout rules of torch.Tensor's repr (torch/_tensor_str.py, PyTorch 1.13), applied to a
// host copy of a tensor's elements: a common width per tensor, 4 decimals, scientific
// notation when the magnitudes demand it, "..." summaries above 1000 elements, 80 columns.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kt::impl::print {

// torch's default print options.
constexpr int precision = 4;
constexpr std::int64_t threshold = 1000;  // more elements than this: summarise
constexpr std::int64_t edgeitems = 3;     // entries kept at each end of a summarised dim
constexpr int linewidth = 80;

/// printf("%.*f" / "%.*e") of a finite double; Python's format() gives the same digits.
inline std::string printf_double(char conversion, int digits, double v) {
  const char format[] = {'%', '.', '*', conversion, '\0'};
  const int n = std::snprintf(nullptr, 0, format, digits, v);
  std::string s(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), format, digits, v);
  s.pop_back();
  return s;
}

/// Python spells non-finite floats "nan", "inf", "-inf" (never "-nan").
inline std::string nonfinite(double v) { return std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf"); }

inline std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// torch's _Formatter for floating dtypes (16-bit dtypes are widened first, as in torch).
/// It looks at the nonzero finite values only: all integral -> "3." style; a max/min
/// magnitude ratio above 1000, a max above 1e8 or (non-integral) a min below 1e-4 ->
/// scientific "1.0000e-05"; else fixed "0.1940".
class FloatFormatter {
public:
  explicit FloatFormatter(const std::vector<double>& sample) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    std::vector<double> finite;
    for (const double v : sample) {
      if (!std::isfinite(v) || v == 0) continue;
      finite.push_back(v);
      lo = std::min(lo, std::abs(v));
      hi = std::max(hi, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (finite.empty()) return;
    sci_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
    for (const double v : finite) {
      const std::size_t len = sci_ ? printf_double('e', precision, v).size()
                              : int_mode_ ? printf_double('f', 0, v).size() + 1
                                          : printf_double('f', precision, v).size();
      width_ = std::max(width_, len);
    }
  }

  std::size_t width() const { return width_; }

  std::string operator()(double v) const {
    std::string s;
    if (!std::isfinite(v)) s = nonfinite(v);
    else if (sci_) s = printf_double('e', precision, v);
    else if (int_mode_) s = printf_double('f', 0, v) + ".";
    else s = printf_double('f', precision, v);
    return pad_left(s, width_);
  }

private:
  bool int_mode_ = true;
  bool sci_ = false;
  std::size_t width_ = 1;
};

/// torch's _Formatter for integer dtypes: plain decimal, right-aligned to the widest.
class IntFormatter {
public:
  explicit IntFormatter(const std::vector<std::int64_t>& sample) {
    for (const std::int64_t v : sample) width_ = std::max(width_, std::to_string(v).size());
  }
  std::size_t width() const { return width_; }
  std::string operator()(std::int64_t v) const { return pad_left(std::to_string(v), width_); }

private:
  std::size_t width_ = 1;
};

/// A row-major host array of T with its extents, walked one dimension at a time; elements
/// are read as V (double for floating dtypes, int64 for integers) one by one, so a large
/// tensor is never widened as a whole.
template <class T, class V>
struct HostArray {
  const T* data;
  std::vector<std::int64_t> dims;
  bool summarize;

  V at(std::int64_t offset) const { return static_cast<V>(static_cast<compute_t<T>>(data[offset])); }

  std::int64_t stride(std::size_t d) const {
    std::int64_t s = 1;
    for (std::size_t k = d + 1; k < dims.size(); ++k) s *= dims[k];
    return s;
  }

  /// The indices along dim d that are shown: all, or the first and last `edgeitems`.
  std::vector<std::int64_t> shown(std::size_t d) const {
    std::vector<std::int64_t> out;
    const std::int64_t n = dims[d];
    for (std::int64_t i = 0; i < n; ++i)
      if (!summarize || n <= 2 * edgeitems || i < edgeitems || i >= n - edgeitems) out.push_back(i);
    return out;
  }

  /// The elements that are printed (torch's get_summarized_data): what the formatter sees.
  void collect(std::size_t d, std::int64_t offset, std::vector<V>& out) const {
    if (d == dims.size()) {
      out.push_back(at(offset));
      return;
    }
    for (const std::int64_t i : shown(d)) collect(d + 1, offset + i * stride(d), out);
  }
};

/// One 1-D row: "[a, b, c]" with at most (linewidth - indent) / (width + 2) entries per line.
template <class T, class V, class F>
std::string vector_str(const HostArray<T, V>& a, std::size_t d, std::int64_t offset, int indent,
                       const F& format) {
  const std::int64_t n = a.dims[d];
  std::vector<std::string> items;
  for (const std::int64_t i : a.shown(d)) {
    if (a.summarize && n > 2 * edgeitems && i == n - edgeitems) items.push_back(" ...");
    items.push_back(format(a.at(offset + i)));
  }
  const auto element_length = static_cast<int>(format.width()) + 2;
  const std::size_t per_line = static_cast<std::size_t>(std::max(1, (linewidth - indent) / element_length));
  std::string s = "[";
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k > 0) s += k % per_line == 0 ? ",\n" + std::string(static_cast<std::size_t>(indent) + 1, ' ') : ", ";
    s += items[k];
  }
  return s + "]";
}

/// The nested brackets of dims d..rank-1 starting at `offset`; `indent` columns precede it.
template <class T, class V, class F>
std::string tensor_str(const HostArray<T, V>& a, std::size_t d, std::int64_t offset, int indent,
                       const F& format) {
  if (d == a.dims.size()) return format(a.at(offset));  // rank 0
  if (d + 1 == a.dims.size()) return vector_str(a, d, offset, indent, format);
  const std::int64_t n = a.dims[d];
  // Rows of a matrix are separated by one newline, matrices of a 3-D tensor by two, ...
  const std::string separator = "," + std::string(a.dims.size() - d - 1, '\n') +
                                std::string(static_cast<std::size_t>(indent) + 1, ' ');
  std::string s = "[";
  bool first = true;
  for (const std::int64_t i : a.shown(d)) {
    if (!first) s += separator;
    if (a.summarize && n > 2 * edgeitems && i == n - edgeitems) s += "..." + separator;
    s += tensor_str(a, d + 1, offset + i * a.stride(d), indent + 1, format);
    first = false;
  }
  return s + "]";
}

/// "tensor(" + body + the suffixes, each on the current line while it fits in 80 columns.
inline std::string with_suffixes(std::string s, const std::vector<std::string>& suffixes) {
  const std::size_t indent = 7;  // strlen("tensor(")
  const std::size_t newline = s.rfind('\n');
  std::size_t last_line = newline == std::string::npos ? s.size() : s.size() - newline - 1;
  for (const std::string& suffix : suffixes) {
    if (last_line + 2 + suffix.size() > static_cast<std::size_t>(linewidth)) {
      s += ",\n" + std::string(indent, ' ') + suffix;
      last_line = indent + suffix.size();
    } else {
      s += ", " + suffix;
      last_line += 2 + suffix.size();
    }
  }
  return s + ")";
}

/// The whole repr of row-major host values `values` with extents `dims`: floating dtypes
/// (16-bit ones widened, as torch does) print as doubles, integers as int64.
template <class T>
std::string format_tensor(const std::vector<T>& values, const std::vector<std::int64_t>& dims,
                          const std::vector<std::string>& suffixes) {
  using V = std::conditional_t<is_floating_dtype_v<T>, double, std::int64_t>;
  using Formatter = std::conditional_t<is_floating_dtype_v<T>, FloatFormatter, IntFormatter>;
  std::string body = "[]";
  if (!values.empty()) {
    const HostArray<T, V> a{values.data(), dims, static_cast<std::int64_t>(values.size()) > threshold};
    std::vector<V> sample;
    a.collect(0, 0, sample);
    body = tensor_str(a, 0, 0, 7, Formatter(sample));
  }
  return with_suffixes("tensor(" + body, suffixes);
}

}  // namespace kt::impl::print
