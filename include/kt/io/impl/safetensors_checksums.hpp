#pragma once
// kt's checksums inside a safetensors file. The format has none, so kt keeps them where every
// reader tolerates extra text: the `__metadata__` entry "kt.xxh64", a JSON object mapping each
// tensor's name to the XXH64 of its data bytes, and "__metadata__" to the XXH64 of the other
// metadata entries (key order; each key and value preceded by its length as 8 little-endian
// bytes), all as 16 lowercase hex digits:
//
//     "kt.xxh64": "{\"__metadata__\":\"9d5e...\",\"0.weight\":\"44bc2cf5ad770999\",...}"
//
// PyTorch and the reference reader see one more string; kt verifies what it reads. A file
// without the entry (written by PyTorch, by the reference library) loads unverified.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/xxhash64.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace kt::impl {

/// The metadata key that holds the checksums.
inline constexpr const char* checksum_key = "kt.xxh64";

inline std::string hex64(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

/// The value of 16 lowercase hex digits; false for anything else.
inline bool parse_hex64(const std::string& s, std::uint64_t& v) {
  if (s.size() != 16) return false;
  v = 0;
  for (const char c : s) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return true;
}

/// The checksum of every metadata entry but the checksums' own.
inline std::uint64_t metadata_checksum(const std::map<std::string, std::string>& metadata) {
  Xxh64 h;
  const auto add = [&](const std::string& s) {
    unsigned char length[8];
    for (int b = 0; b < 8; ++b) length[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(s.size()) >> (8 * b));
    h.update(length, 8);
    h.update(s.data(), s.size());
  };
  for (const auto& [key, value] : metadata)
    if (key != checksum_key) {
      add(key);
      add(value);
    }
  return h.digest();
}

/// The checksums a file records: of its metadata (when recorded) and by tensor name.
struct SafetensorsChecksums {
  bool has_metadata = false;
  std::uint64_t metadata = 0;
  std::unordered_map<std::string, std::uint64_t> tensors;
};

/// Parses the "kt.xxh64" entry of `metadata` (empty when there is none); kt::Error when it is
/// malformed. `where` prefixes the messages.
KT_INLINE_UNLESS_COMPILED SafetensorsChecksums read_checksums(const std::map<std::string, std::string>& metadata,
                                                              const std::string& where);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)

KT_INLINE_UNLESS_COMPILED SafetensorsChecksums read_checksums(const std::map<std::string, std::string>& metadata,
                                                              const std::string& where) {
  SafetensorsChecksums out;
  const auto it = metadata.find(checksum_key);
  if (it == metadata.end()) return out;
  const std::string entry = std::string("the metadata entry '") + checksum_key + "' ";
  Json record;
  JsonError error;
  KT_REQUIRE(json_parse(it->second, record, error) && record.is_object(), where, entry, "is not a JSON object");
  out.tensors.reserve(record.size());
  for (const auto& [name, value] : record.members()) {
    std::uint64_t v = 0;
    KT_REQUIRE(value.is_string() && parse_hex64(value.as_string(), v), where, entry, "gives '",
               printable(name), "' the value ", printable(value.dump(), 40), ", not 16 lowercase hex digits");
    if (name == "__metadata__") {
      out.has_metadata = true;
      out.metadata = v;
    } else {
      out.tensors.emplace(name, v);
    }
  }
  return out;
}

#endif

}  // namespace kt::impl
