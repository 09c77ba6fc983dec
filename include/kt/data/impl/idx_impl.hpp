#pragma once
// The IDX format (LeCun's MNIST files): bytes 0-1 zero, byte 2 the element type code, byte 3
// the rank; then one big-endian uint32 per dimension; then the elements, big-endian, row-major.
//
// Hostile input: the header's size claim is checked against IdxOptions::max_bytes before
// anything is allocated; a plain file's size must match the claim before the data buffer is
// allocated; a gzip file's data is inflated into a buffer that grows with the data actually
// decompressed (never to more than the claim), so a lying header costs memory proportional to
// the real data. The tensor is allocated only once all data is read and the stream verified,
// and every element conversion is checked (no silent wrap, truncation or overflow to inf).

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/data/idx_options.hpp"
#include "kt/data/impl/byte_reader.hpp"
#include "kt/tensor/impl/dims_str.hpp"
#include "kt/tensor/tensor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace kt::impl {

struct IdxType {
  int code;
  const char* name;
  int bytes;
};

inline const IdxType* idx_type(int code) {
  static const IdxType types[] = {{0x08, "uint8", 1}, {0x09, "int8", 1},    {0x0B, "int16", 2},
                                  {0x0C, "int32", 4}, {0x0D, "float32", 4}, {0x0E, "float64", 8}};
  for (const auto& t : types)
    if (t.code == code) return &t;
  return nullptr;
}

/// An element value for a message: integers exactly, floats in the shortest form that reads
/// back to the same value ("nan", "inf" and "-inf" included).
inline std::string idx_value_text(double v, int code) {
  char buf[64];
  std::to_chars_result r{};
  if (code == 0x0D) r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  else if (code == 0x0E) r = std::to_chars(buf, buf + sizeof buf, v);
  else r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
  return std::string(buf, r.ptr);
}

/// A malloc'd byte buffer that can grow (realloc) and reports failure as kt::Error. Not a
/// std::vector: resize() would zero-fill (touch) every byte of a large claim before the data
/// arrives, and growth by realloc can extend in place.
class IdxBuffer {
public:
  unsigned char* data() const { return data_.get(); }
  std::size_t capacity() const { return capacity_; }
  void reset() {
    data_.reset();
    capacity_ = 0;
  }
  void reserve(std::size_t n, const char* who, const std::string& path) {
    if (n <= capacity_) return;
    void* p = std::realloc(data_.get(), n);
    if (p == nullptr) KT_THROW(who, ": '", path, "': out of memory allocating ", n, " bytes for the IDX data");
    (void)data_.release();
    data_.reset(static_cast<unsigned char*>(p));
    capacity_ = n;
  }

private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char, Free> data_;
  std::size_t capacity_ = 0;
};

/// Converts element k (value v from a file of `type`) to T, or throws naming the element.
template <class T>
T idx_convert(double v, double scale, std::int64_t k, std::int64_t header, const IdxType& type, const char* who,
              const std::string& path) {
  const auto fail = [&](const char* what) {
    KT_THROW(who, ": '", path, "': element ", k, " at byte offset ", header + k * type.bytes, ": ", type.name,
             " value ", idx_value_text(v, type.code), scale != 1.0 ? " times the scale " + idx_value_text(scale, 0x0E) : "",
             what, dtype_name<T>());
  };
  if constexpr (is_floating_dtype_v<T>) {
    using C = compute_t<T>;
    const double s = v * scale;
    if (std::isfinite(v) && !(std::fabs(s) <= static_cast<double>(std::numeric_limits<C>::max())))
      fail(" is out of range for ");  // beyond the compute type: the cast would give inf
    const T out = static_cast<T>(static_cast<C>(s));
    if (std::isfinite(v) && !std::isfinite(static_cast<double>(static_cast<C>(out))))
      fail(" is out of range for ");  // a 16-bit T overflowed in the last rounding
    return out;
  } else {
    if (!std::isfinite(v)) fail(" is not a finite number, which cannot convert to ");
    if (v != std::trunc(v)) fail(" is not an integer, which cannot convert to ");
    // [lowest, 2^digits): every bound is exact in double (2^63 for int64, whose max is not).
    if (!(v >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
          v < std::ldexp(1.0, std::numeric_limits<T>::digits)))
      fail(" is out of range for ");
    return static_cast<T>(v);
  }
}

/// Element k of a big-endian buffer of S (one of the IDX element types).
template <class S>
S idx_load(const unsigned char* p) {
  if constexpr (sizeof(S) == 1) {
    return static_cast<S>(p[0]);
  } else {
    using U = std::conditional_t<sizeof(S) == 2, std::uint16_t, std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>>;
    U u = 0;
    for (std::size_t b = 0; b < sizeof(S); ++b) u = static_cast<U>((u << 8) | p[b]);
    S v;
    std::memcpy(&v, &u, sizeof(S));
    return v;
  }
}

/// Converts `numel` elements of S (big-endian in `bytes`) to T. The per-element checks run
/// only where some value of S (times `scale`) could fail them: uint8 pixels into float with
/// the default scale convert without any.
template <class T, class S>
void idx_convert_all(const unsigned char* bytes, T* dst, std::int64_t numel, double scale, std::int64_t header,
                     const IdxType& type, const char* who, const std::string& path) {
  using C = compute_t<T>;
  const double lo = static_cast<double>(std::numeric_limits<S>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<S>::max());
  bool checked = true;
  if constexpr (is_floating_dtype_v<T>) {
    const double reach = std::max(-lo, hi) * std::fabs(scale);  // inf for float64 sources
    checked = !(reach <= static_cast<double>(static_cast<C>(std::numeric_limits<T>::max())));
  } else {
    checked = !(std::is_integral_v<S> && lo >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
                hi <= static_cast<double>(std::numeric_limits<T>::max()));
  }
  constexpr std::int64_t size = sizeof(S);
  if (checked) {
    for (std::int64_t k = 0; k < numel; ++k)
      dst[k] = idx_convert<T>(static_cast<double>(idx_load<S>(bytes + k * size)), scale, k, header, type, who, path);
  } else if constexpr (is_floating_dtype_v<T>) {
    for (std::int64_t k = 0; k < numel; ++k)
      dst[k] = static_cast<T>(static_cast<C>(static_cast<double>(idx_load<S>(bytes + k * size)) * scale));
  } else {
    for (std::int64_t k = 0; k < numel; ++k) dst[k] = static_cast<T>(idx_load<S>(bytes + k * size));
  }
}

/// What an IDX header declares, checked against the options and the file's size.
struct IdxHeader {
  const IdxType* type = nullptr;
  std::vector<std::int64_t> dims;
  std::int64_t data_bytes = 0;  ///< the element bytes that follow the header
  std::int64_t header = 0;      ///< the header's length: the data's byte offset
  std::string declared;         ///< "uint8 (60000, 28, 28) = 47040000 data bytes from byte offset 16"
};

/// The magic number: two zero bytes, a known type code, an allowed rank.
inline const IdxType* idx_read_magic(ByteReader& in, const char* who, const IdxOptions& options, int& rank) {
  const std::string& p = in.shown_path();
  unsigned char head[4];
  if (in.read_some(head, 4) < 4)
    KT_THROW(who, ": '", p, "': truncated file: the 4-byte IDX magic number ends at byte offset ", in.offset());
  const IdxType* type = idx_type(head[2]);
  if (head[0] != 0 || head[1] != 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%02X%02X%02X%02X", head[0], head[1], head[2], head[3]);
    KT_THROW(who, ": '", p, "': bad magic number ", hex, " at byte offset 0 (an IDX file starts with "
             "two zero bytes, a type code and the rank)");
  }
  if (type == nullptr) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", head[2]);
    KT_THROW(who, ": '", p, "': unknown IDX type code ", hex, " at byte offset 2 (expected 0x08 uint8, "
             "0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32 or 0x0E float64)");
  }
  rank = head[3];
  if (options.rank() != 0 && rank != options.rank())
    KT_THROW(who, ": '", p, "': the header declares rank ", rank, " at byte offset 3, but rank ", options.rank(),
             " is required (kt::IdxOptions().rank(", options.rank(), "))");
  if (rank == 0) KT_THROW(who, ": '", p, "': rank 0 at byte offset 3 (an IDX file has at least one dimension)");
  if (rank > Shape::max_rank)
    KT_THROW(who, ": '", p, "': rank ", rank, " at byte offset 3 exceeds kt's maximum of ", Shape::max_rank);
  return type;
}

/// The whole header: the magic number, the dimensions, and the data size they claim
/// (saturating: 6 extents of 2^32 overflow) checked against the limit and the file's size.
inline IdxHeader idx_read_header(ByteReader& in, const char* who, const IdxOptions& options) {
  const std::string& p = in.shown_path();
  IdxHeader h;
  int rank = 0;
  h.type = idx_read_magic(in, who, options, rank);
  constexpr std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  std::int64_t nonzero_bytes = h.type->bytes;  // the element size times the nonzero extents
  bool empty = false;
  for (int d = 0; d < rank; ++d) {
    unsigned char b[4];
    if (in.read_some(b, 4) < 4)
      KT_THROW(who, ": '", p, "': truncated file: the header declares ", rank, " dimensions but ends at byte offset ",
               in.offset(), " (expected ", 4 + 4 * rank, " header bytes)");
    const std::int64_t extent =
        (std::int64_t{b[0]} << 24) | (std::int64_t{b[1]} << 16) | (std::int64_t{b[2]} << 8) | b[3];
    if (extent == 0 && !options.allow_empty())
      KT_THROW(who, ": '", p, "': dimension ", d, " is 0 at byte offset ", 4 + 4 * d,
               ": the header declares an empty tensor (kt::IdxOptions().allow_empty(true) accepts one)");
    h.dims.push_back(extent);
    empty = empty || extent == 0;
    if (extent != 0) nonzero_bytes = nonzero_bytes > huge / extent ? huge : nonzero_bytes * extent;
  }
  h.data_bytes = empty ? 0 : nonzero_bytes;
  h.header = 4 + 4 * std::int64_t{rank};
  h.declared = std::string(h.type->name) + " " + dims_str(h.dims) + " = " +
               (h.data_bytes == huge ? "more than " + std::to_string(huge) : std::to_string(h.data_bytes)) +
               " data bytes from byte offset " + std::to_string(h.header);
  if (empty && nonzero_bytes == huge)
    KT_THROW(who, ": '", p, "': the header declares ", h.type->name, " ", dims_str(h.dims),
             ", whose nonzero dimensions overflow 64-bit sizes");
  if (h.data_bytes > options.max_bytes() || h.data_bytes == huge)
    KT_THROW(who, ": '", p, "': the header declares ", h.declared, ", over the limit of ", options.max_bytes(),
             " bytes (raise it with kt::IdxOptions().max_bytes(n))");
  if (in.file_size() >= 0 && in.file_size() != h.header + h.data_bytes)
    KT_THROW(who, ": '", p, "': the header declares ", h.declared, " (", h.header + h.data_bytes,
             " bytes in all) but the file has ", in.file_size(), " bytes",
             in.file_size() < h.header + h.data_bytes ? " (truncated file)" : " (wrong dimensions or trailing data)");
  return h;
}

/// Reads up to `want` data bytes: a plain file's size was checked, so in one go (straight into
/// `*out`, made here, when `direct`); gzip (size unknown) into a buffer that grows with the data
/// that arrives: at most twice the data read so far (or 1 MiB), the last step to the full
/// claim only when the data backs half of it. Returns the bytes read; `bytes` holds them.
template <class T>
std::size_t idx_read_data(ByteReader& in, std::size_t want, bool direct, const Shape& shape,
                          std::optional<Tensor<T, Host>>& out, IdxBuffer& buffer, unsigned char*& bytes,
                          const char* who) {
  const std::string& p = in.shown_path();
  if (in.file_size() >= 0) {
    if (direct) {
      out.emplace(shape);
      bytes = reinterpret_cast<unsigned char*>(out->data());
    } else {
      buffer.reserve(want, who, p);
      bytes = buffer.data();
    }
    return in.read_some(bytes, want);
  }
  constexpr std::size_t first_chunk = std::size_t{1} << 20;
  std::size_t capacity = 0, got = 0;
  while (got < want) {
    if (got == capacity) {
      capacity = std::min(want, std::max(first_chunk, 2 * capacity));
      if (direct && capacity == want) {  // uint8 -> uint8: the rest goes into the tensor
        out.emplace(shape);
        bytes = reinterpret_cast<unsigned char*>(out->data());
        if (got > 0) std::memcpy(bytes, buffer.data(), got);
        buffer.reset();
      } else {
        buffer.reserve(capacity, who, p);
        bytes = buffer.data();
      }
    }
    const std::size_t ask = capacity - got;
    const std::size_t n = in.read_some(bytes + got, ask);
    got += n;
    if (n < ask) break;  // the end of the data
  }
  return got;
}

/// Reads the whole IDX file into a host tensor of T, converting each element; `scale`
/// multiplies floating results (1 for a plain conversion).
template <class T>
Tensor<T, Host> read_idx(const std::string& path, double scale, const char* who, const IdxOptions& options) {
  ByteReader in(path, who);
  const std::string& p = in.shown_path();
  KT_REQUIRE(std::isfinite(scale), who, ": the scale must be finite, got ", scale);
  const IdxHeader h = idx_read_header(in, who, options);
  const Shape shape(h.dims);
  const bool direct = std::is_same_v<T, std::uint8_t> && h.type->code == 0x08;  // no conversion
  const auto want = static_cast<std::size_t>(h.data_bytes);
  std::optional<Tensor<T, Host>> out;
  IdxBuffer buffer;
  unsigned char* bytes = nullptr;
  if (idx_read_data(in, want, direct, shape, out, buffer, bytes, who) < want)
    KT_THROW(who, ": '", p, "': truncated file: the header declares ", h.declared,
             " but the data ends at byte offset ", in.offset());
  if (!in.at_end())
    KT_THROW(who, ": '", p, "': unexpected data after byte offset ", in.offset(), ", where the declared ",
             h.type->name, " ", shape.str(), " ends (wrong dimensions or trailing data)");

  if (!out) out.emplace(shape);
  if (direct) return std::move(*out);  // read straight into it
  T* dst = out->data();
  const std::int64_t numel = shape.numel();
  const IdxType& type = *h.type;
  switch (type.code) {
    case 0x08: idx_convert_all<T, std::uint8_t>(bytes, dst, numel, scale, h.header, type, who, p); break;
    case 0x09: idx_convert_all<T, std::int8_t>(bytes, dst, numel, scale, h.header, type, who, p); break;
    case 0x0B: idx_convert_all<T, std::int16_t>(bytes, dst, numel, scale, h.header, type, who, p); break;
    case 0x0C: idx_convert_all<T, std::int32_t>(bytes, dst, numel, scale, h.header, type, who, p); break;
    case 0x0D: idx_convert_all<T, float>(bytes, dst, numel, scale, h.header, type, who, p); break;
    default: idx_convert_all<T, double>(bytes, dst, numel, scale, h.header, type, who, p); break;
  }
  return std::move(*out);
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the reader for every dtype.
#define KT_ETI_IDX_ONE(T, D, KW) \
  KW kt::Tensor<T, kt::Host> kt::impl::read_idx<T>(const std::string&, double, const char*, const kt::IdxOptions&);
#define KT_ETI_IDX(KW) KT_ETI_EACH_DTYPE(KT_ETI_IDX_ONE, kt::Host, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_DATA)
KT_ETI_IDX(extern template)
#endif
