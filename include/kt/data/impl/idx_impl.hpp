#pragma once
// The IDX format (LeCun's MNIST files): bytes 0-1 zero, byte 2 the element type code, byte 3
// the rank; then one big-endian uint32 per dimension; then the elements, big-endian, row-major.

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/data/impl/byte_reader.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
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

/// Element k of a big-endian IDX buffer of `type`, as a double (exact for every IDX type).
inline double idx_value(const unsigned char* p, int code) {
  switch (code) {
    case 0x08: return p[0];
    case 0x09: return static_cast<std::int8_t>(p[0]);
    case 0x0B: return static_cast<std::int16_t>(static_cast<std::uint16_t>((p[0] << 8) | p[1]));
    case 0x0C:
    case 0x0D: {
      const std::uint32_t u = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
                              (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
      if (code == 0x0C) return static_cast<std::int32_t>(u);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    default: {
      std::uint64_t u = 0;
      for (int b = 0; b < 8; ++b) u = (u << 8) | p[b];
      double d;
      std::memcpy(&d, &u, 8);
      return d;
    }
  }
}

/// Reads the whole IDX file into a host tensor of T, converting each element; `scale`
/// multiplies floating results (1 for a plain conversion).
template <class T>
Tensor<T, Host> read_idx(const std::string& path, double scale, const char* who) {
  ByteReader in(path, who);
  unsigned char head[4];
  if (in.read_some(head, 4) < 4)
    KT_THROW(who, ": '", path, "': truncated file: the 4-byte IDX magic number ends at byte offset ",
             in.offset());
  const IdxType* type = idx_type(head[2]);
  if (head[0] != 0 || head[1] != 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%02X%02X%02X%02X", head[0], head[1], head[2], head[3]);
    KT_THROW(who, ": '", path, "': bad magic number ", hex, " at byte offset 0 (an IDX file starts with "
             "two zero bytes, a type code and the rank)");
  }
  if (type == nullptr) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", head[2]);
    KT_THROW(who, ": '", path, "': unknown IDX type code ", hex, " at byte offset 2 (expected 0x08 uint8, "
             "0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32 or 0x0E float64)");
  }
  if (head[3] == 0) KT_THROW(who, ": '", path, "': rank 0 at byte offset 3 (an IDX file has at least one dimension)");
  const int rank = head[3];
  if (rank > Shape::max_rank)
    KT_THROW(who, ": '", path, "': rank ", rank, " at byte offset 3 exceeds kt's maximum of ", Shape::max_rank);
  std::vector<std::int64_t> dims(static_cast<std::size_t>(rank));
  std::int64_t numel = 1;
  for (int d = 0; d < rank; ++d) {
    unsigned char b[4];
    if (in.read_some(b, 4) < 4)
      KT_THROW(who, ": '", path, "': truncated file: the header declares ", rank,
               " dimensions but ends at byte offset ", in.offset(), " (expected ", 4 + 4 * rank, " header bytes)");
    const std::int64_t extent = (std::int64_t{b[0]} << 24) | (std::int64_t{b[1]} << 16) | (std::int64_t{b[2]} << 8) | b[3];
    KT_REQUIRE(extent == 0 || numel <= (std::int64_t{1} << 40) / extent, who, ": '", path,
               "': the declared dimensions overflow at byte offset ", 4 + 4 * d);
    dims[static_cast<std::size_t>(d)] = extent;
    numel *= extent;
  }
  const std::int64_t header = 4 + 4 * std::int64_t{rank};
  const std::int64_t data_bytes = numel * type->bytes;
  const Shape shape(dims);
  if (in.file_size() >= 0 && in.file_size() != header + data_bytes)
    KT_THROW(who, ": '", path, "': the header declares ", type->name, " ", shape.str(), " = ", data_bytes,
             " data bytes from byte offset ", header, " (", header + data_bytes, " bytes in all) but the file has ",
             in.file_size(), " bytes", in.file_size() < header + data_bytes ? " (truncated file)" : " (wrong dimensions or trailing data)");

  Tensor<T, Host> out(shape);
  std::vector<unsigned char> raw;
  unsigned char* bytes = nullptr;
  bool direct = false;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    direct = type->code == 0x08;  // read straight into the tensor
    if (direct) bytes = out.data();
  }
  if (bytes == nullptr) {
    raw.resize(static_cast<std::size_t>(data_bytes));
    bytes = raw.data();
  }
  const std::size_t got = in.read_some(bytes, static_cast<std::size_t>(data_bytes));
  if (static_cast<std::int64_t>(got) < data_bytes)
    KT_THROW(who, ": '", path, "': truncated file: the header declares ", type->name, " ", shape.str(), " = ",
             data_bytes, " data bytes from byte offset ", header, " but the data ends at byte offset ", in.offset());
  if (!in.at_end())
    KT_THROW(who, ": '", path, "': unexpected data after byte offset ", in.offset(), ", where the declared ",
             type->name, " ", shape.str(), " ends (wrong dimensions or trailing data)");
  if (!direct) {
    T* dst = out.data();
    for (std::int64_t k = 0; k < numel; ++k) {
      const double v = idx_value(bytes + k * type->bytes, type->code);
      if constexpr (is_floating_dtype_v<T>) {
        dst[k] = static_cast<T>(static_cast<compute_t<T>>(v * scale));
      } else {
        dst[k] = static_cast<T>(v);
      }
    }
  }
  return out;
}

}  // namespace kt::impl
