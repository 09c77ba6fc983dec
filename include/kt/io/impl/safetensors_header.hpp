#pragma once
// Reading and validating a safetensors header. The format: 8 bytes, the header's length N as
// a little-endian uint64; N bytes of JSON (an object: per tensor {"dtype", "shape",
// "data_offsets": [begin, end]} relative to the data, and an optional "__metadata__" string
// map), padded with spaces; then the data, the tensors back to back with no hole.
//
// The header is untrusted: its length is checked against the cap and the file before it is
// read, its nesting depth before it is parsed (at most 128, serde_json's limit: a header needs
// 3, unknown fields may nest deeper), and every
// tensor's dtype, shape, byte count and offsets are checked, with the offsets required to
// tile the data exactly (no overlap, hole, or trailing byte). Nothing is allocated from a
// claim before it is checked.
//
// The parse is one pass in linear time (kt/core/impl/json.hpp): each top-level entry is built
// on its own, checked and dropped; a key named twice is found in the entry's own object, or,
// for tensor names, by the hash index of names built once all are read. (A DOM parse that
// rescans the whole object after every entry is quadratic, far too slow for the million
// entries a 100 MB header can hold; docs/performance.md, "Reading safetensors files".)
//
// What is accepted follows the reference reader (the Rust `safetensors` crate, whose header
// is serde_json over UTF-8): JSON whitespace around the object, unknown per-tensor fields
// (ignored), any byte the JSON grammar allows. kt is stricter in four documented ways, each a
// file the reference would read ambiguously or kt could not hold: a key named twice (serde
// keeps the last), a tensor name that is empty, longer than 1024 bytes or holds a NUL
// character, and a rank above kt's maximum (6). A NUL byte anywhere in the header is refused
// by both.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_dtype.hpp"
#include "kt/tensor/shape.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace kt::impl {

struct SafetensorsEntry {
  std::string name, dtype;
  Shape shape;
  std::uint64_t begin = 0, end = 0;  // byte offsets into the data (after the header)
};

struct SafetensorsHeader {
  std::uint64_t data_start = 0;              // 8 + header length
  std::vector<SafetensorsEntry> entries;     // in offset order
  std::unordered_map<std::string, std::size_t> index;  // name -> position in entries
  std::map<std::string, std::string> metadata;
};

/// The deepest nesting of [ and { in `text`, outside strings.
inline int json_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

/// Reads and checks the header of `file` (`path` as messages show it).
KT_INLINE_UNLESS_COMPILED SafetensorsHeader read_safetensors_header(const InputFile& file, const std::string& path,
                                                                    std::uint64_t max_header_bytes);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)

/// Checks one top-level entry of the header and adds it to `out` (a tensor) or its metadata.
KT_INLINE_UNLESS_COMPILED void add_header_entry(SafetensorsHeader& out, const std::string& name, const Json& value,
                                                std::uint64_t data_size, const std::string& where) {
  const std::string shown = printable(name);
  if (name == "__metadata__") {
    KT_REQUIRE(value.is_object(), where, "__metadata__ is not an object of strings");
    for (const auto& [key, text_value] : value.members()) {
      KT_REQUIRE(text_value.is_string(), where, "__metadata__ entry '", printable(key), "' is not a string");
      out.metadata[key] = text_value.as_string();
    }
    return;
  }
  KT_REQUIRE(!name.empty() && name.size() <= 1024, where, "a tensor name is ",
             name.empty() ? "empty" : "longer than 1024 bytes ('" + shown + "')");
  KT_REQUIRE(name.find('\0') == std::string::npos, where, "the tensor name '", shown, "' holds a NUL character");
  KT_REQUIRE(value.is_object(), where, "tensor '", shown, "' is not an object");
  const Json none;
  const auto field = [&](const char* key) -> const Json& {
    const Json* v = value.find(key);
    return v ? *v : none;
  };
  const Json& dtype = field("dtype");
  KT_REQUIRE(dtype.is_string(), where, "tensor '", shown, "' has no dtype string");
  SafetensorsEntry e;
  e.name = name;
  e.dtype = dtype.as_string();
  const SafetensorsDtype* type = safetensors_dtype(e.dtype);
  KT_REQUIRE(type != nullptr, where, "tensor '", shown, "' has the unknown dtype '", printable(e.dtype), "'");
  const Json& shape = field("shape");
  KT_REQUIRE(shape.is_array(), where, "tensor '", shown, "' has no shape array");
  KT_REQUIRE(shape.size() <= static_cast<std::size_t>(Shape::max_rank), where, "tensor '", shown, "' has rank ",
             shape.size(), ", more than kt's maximum of ", Shape::max_rank);
  std::vector<std::int64_t> dims;
  std::uint64_t numel = 1;
  bool overflow = false;
  for (const Json& d : shape.elements()) {
    KT_REQUIRE(d.is_unsigned(), where, "tensor '", shown, "': shape entry ", printable(d.dump(), 40),
               " is not a non-negative integer");
    const std::uint64_t extent = d.as_unsigned();
    KT_REQUIRE(extent <= static_cast<std::uint64_t>(INT64_MAX), where, "tensor '", shown, "': shape entry ", extent,
               " is too large");
    if (extent != 0 && numel > UINT64_MAX / 8 / extent) overflow = true;
    numel *= extent;
    dims.push_back(static_cast<std::int64_t>(extent));
  }
  KT_REQUIRE(!overflow, where, "tensor '", shown, "': the shape's byte count overflows");
  e.shape = Shape(dims);
  const Json& offsets = field("data_offsets");
  KT_REQUIRE(offsets.is_array() && offsets.size() == 2 && offsets.elements()[0].is_unsigned() &&
                 offsets.elements()[1].is_unsigned(),
             where, "tensor '", shown, "' has no data_offsets [begin, end] of non-negative integers");
  e.begin = offsets.elements()[0].as_unsigned();
  e.end = offsets.elements()[1].as_unsigned();
  KT_REQUIRE(e.begin <= e.end && e.end <= data_size, where, "tensor '", shown, "': data_offsets [", e.begin, ", ",
             e.end, "] lie outside the ", data_size, " data bytes");
  const std::uint64_t bytes = numel * static_cast<std::uint64_t>(type->bytes);
  KT_REQUIRE(e.end - e.begin == bytes, where, "tensor '", shown, "': data_offsets [", e.begin, ", ", e.end, "] hold ",
             e.end - e.begin, " bytes but ", e.dtype, " ", e.shape.str(), " needs ", bytes);
  out.entries.push_back(std::move(e));
}

KT_INLINE_UNLESS_COMPILED SafetensorsHeader read_safetensors_header(const InputFile& file, const std::string& path,
                                                                    std::uint64_t max_header_bytes) {
  const std::string where = "kt::io::load_safetensors: '" + printable(path, 200) + "': ";
  const std::uint64_t file_size = file.size();
  KT_REQUIRE(file_size >= 8, where, "the file has ", file_size, " bytes, fewer than the 8 of the header length");
  unsigned char prefix[8];
  KT_REQUIRE(file.read_at(prefix, 8, 0) == 8, where, "cannot read the header length at byte offset 0");
  std::uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = (n << 8) | prefix[b];  // little-endian
  KT_REQUIRE(n <= max_header_bytes, where, "the header length ", n, " at byte offset 0 exceeds the limit of ",
             max_header_bytes, " bytes (kt::io::SafetensorsOptions().max_header_bytes(n) raises it)");
  KT_REQUIRE(n <= file_size - 8, where, "the header length ", n, " at byte offset 0 runs past the end of the ",
             file_size, "-byte file (truncated file?)");
  KT_REQUIRE(n >= 2, where, "the header length ", n, " at byte offset 0 is too small for a JSON object");
  std::string text(static_cast<std::size_t>(n), '\0');
  KT_REQUIRE(file.read_at(text.data(), n, 8) == static_cast<std::int64_t>(n), where, "cannot read the ", n,
             "-byte header from byte offset 8 (the file shrank?)");
  const std::size_t nul = text.find('\0');
  KT_REQUIRE(nul == std::string::npos, where, "the header holds a NUL byte at byte offset ", 8 + nul,
             " (JSON allows none; padding is spaces)");
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  KT_REQUIRE(first != std::string::npos && text[first] == '{', where, "the header at byte offset 8 does not start with "
             "'{' (after any whitespace)");
  const int depth = json_depth(text);
  KT_REQUIRE(depth <= 128, where, "the header nests ", depth, " levels deep, more than the 128 of the reference "
             "reader (serde_json's limit)");

  SafetensorsHeader out;
  out.data_start = 8 + n;
  const std::uint64_t data_size = file_size - out.data_start;
  bool seen_metadata = false;  // tensor names named twice are found by the index below
  JsonError error;
  const bool parsed = json_parse_members(text, [&](std::string& name, Json& value) {
    KT_REQUIRE(name != "__metadata__" || !seen_metadata, where, "the header names '__metadata__' twice");
    seen_metadata = seen_metadata || name == "__metadata__";
    add_header_entry(out, name, value, data_size, where);
  }, error);
  if (!parsed && error.twice)
    KT_THROW(where, "the header names '", printable(error.key), "' twice (byte offset ", 8 + error.offset, ")");
  KT_REQUIRE(parsed, where, "the header is not valid JSON at byte offset ", 8 + error.offset, ": ", error.message);

  // The tensors tile the data: sorted by offset, each starts where the previous ended.
  std::sort(out.entries.begin(), out.entries.end(),
            [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.begin < b.begin || (a.begin == b.begin && a.end < b.end); });
  out.index.reserve(out.entries.size());
  for (std::size_t i = 0; i < out.entries.size(); ++i)
    KT_REQUIRE(out.index.emplace(out.entries[i].name, i).second, where, "the header names '",
               printable(out.entries[i].name), "' twice");
  std::uint64_t expected = 0;
  for (const auto& e : out.entries) {
    KT_REQUIRE(e.begin == expected, where, "tensor '", printable(e.name), "' starts at data offset ", e.begin, " but ",
               e.begin < expected ? "overlaps the previous tensor, which ends at " : "the previous tensor ends at ",
               expected, e.begin < expected ? "" : " (a hole)");
    expected = e.end;
  }
  KT_REQUIRE(expected == data_size, where, data_size - expected, " bytes after the last tensor, from byte offset ",
             out.data_start + expected, " (trailing data)");
  return out;
}

#endif

}  // namespace kt::impl
