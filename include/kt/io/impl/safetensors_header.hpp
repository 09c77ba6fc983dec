#pragma once
// Reading and validating a safetensors header. The format: 8 bytes, the header's length N as
// a little-endian uint64; N bytes of JSON (an object: per tensor {"dtype", "shape",
// "data_offsets": [begin, end]} relative to the data, and an optional "__metadata__" string
// map), padded with spaces; then the data, the tensors back to back with no hole.
//
// The header is untrusted: its length is checked against the cap and the file before it is
// read, its nesting depth before it is parsed (a safetensors header needs 3 levels), keys
// are checked for duplicates while parsing (JSON parsers keep the last silently), and every
// tensor's dtype, shape, byte count and offsets are checked, with the offsets required to
// tile the data exactly (no overlap, hole, or trailing byte). Nothing is allocated from a
// claim before it is checked.

#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_dtype.hpp"
#include "kt/tensor/shape.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
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

inline SafetensorsHeader read_safetensors_header(std::ifstream& in, const std::string& path, std::uint64_t file_size,
                                                 std::uint64_t max_header_bytes) {
  const auto where = [&] { return "kt::io::load_safetensors: '" + printable(path, 200) + "': "; };
  KT_REQUIRE(file_size >= 8, where(), "the file has ", file_size, " bytes, fewer than the 8 of the header length");
  unsigned char prefix[8];
  in.read(reinterpret_cast<char*>(prefix), 8);
  KT_REQUIRE(in, where(), "cannot read the header length at byte offset 0");
  std::uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = (n << 8) | prefix[b];  // little-endian
  KT_REQUIRE(n <= max_header_bytes, where(), "the header length ", n, " at byte offset 0 exceeds the limit of ",
             max_header_bytes, " bytes (kt::io::SafetensorsOptions().max_header_bytes(n) raises it)");
  KT_REQUIRE(n <= file_size - 8, where(), "the header length ", n, " at byte offset 0 runs past the end of the ",
             file_size, "-byte file (truncated file?)");
  KT_REQUIRE(n >= 2, where(), "the header length ", n, " at byte offset 0 is too small for a JSON object");
  std::string text(static_cast<std::size_t>(n), '\0');
  in.read(text.data(), static_cast<std::streamsize>(n));
  KT_REQUIRE(in, where(), "cannot read the ", n, "-byte header from byte offset 8");
  KT_REQUIRE(text.front() == '{', where(), "the header at byte offset 8 does not start with '{'");
  const int depth = json_depth(text);
  KT_REQUIRE(depth <= 3, where(), "the header nests ", depth, " levels deep; a safetensors header has at most 3");

  // Parse, rejecting a key that appears twice in one object.
  std::vector<std::set<std::string>> keys_at_depth(4);
  std::string duplicate;
  const auto on_event = [&](int d, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::object_start && d >= 0 && d < 4) keys_at_depth[static_cast<std::size_t>(d)].clear();
    if (event == nlohmann::json::parse_event_t::key && d >= 1 && d <= 4) {
      auto& seen = keys_at_depth[static_cast<std::size_t>(d - 1)];
      const std::string key = parsed.get<std::string>();
      if (!seen.insert(key).second && duplicate.empty()) duplicate = key;
    }
    return true;
  };
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(text, on_event);
  } catch (const nlohmann::json::exception& e) {
    KT_THROW(where(), "the header (bytes 8 to ", 8 + n, ") is not valid JSON: ", printable(e.what(), 160));
  }
  KT_REQUIRE(duplicate.empty(), where(), "the header names '", printable(duplicate), "' twice");
  KT_REQUIRE(header.is_object(), where(), "the header is not a JSON object");

  SafetensorsHeader out;
  out.data_start = 8 + n;
  const std::uint64_t data_size = file_size - out.data_start;
  for (const auto& [name, value] : header.items()) {
    const std::string shown = printable(name);
    if (name == "__metadata__") {
      KT_REQUIRE(value.is_object(), where(), "__metadata__ is not an object of strings");
      for (const auto& [key, text_value] : value.items()) {
        KT_REQUIRE(text_value.is_string(), where(), "__metadata__ entry '", printable(key), "' is not a string");
        out.metadata[key] = text_value.get<std::string>();
      }
      continue;
    }
    KT_REQUIRE(!name.empty() && name.size() <= 1024, where(), "a tensor name is ",
               name.empty() ? "empty" : "longer than 1024 bytes ('" + shown + "')");
    KT_REQUIRE(value.is_object(), where(), "tensor '", shown, "' is not an object");
    for (const auto& [field, unused] : value.items()) {
      (void)unused;
      KT_REQUIRE(field == "dtype" || field == "shape" || field == "data_offsets", where(), "tensor '", shown,
                 "' has an unknown field '", printable(field), "'");
    }
    KT_REQUIRE(value.contains("dtype") && value["dtype"].is_string(), where(), "tensor '", shown, "' has no dtype string");
    SafetensorsEntry e;
    e.name = name;
    e.dtype = value["dtype"].get<std::string>();
    const SafetensorsDtype* type = safetensors_dtype(e.dtype);
    KT_REQUIRE(type != nullptr, where(), "tensor '", shown, "' has the unknown dtype '", printable(e.dtype), "'");
    KT_REQUIRE(value.contains("shape") && value["shape"].is_array(), where(), "tensor '", shown, "' has no shape array");
    const auto& shape = value["shape"];
    KT_REQUIRE(shape.size() <= static_cast<std::size_t>(Shape::max_rank), where(), "tensor '", shown, "' has rank ",
               shape.size(), ", more than kt's maximum of ", Shape::max_rank);
    std::vector<std::int64_t> dims;
    std::uint64_t numel = 1;
    bool overflow = false;
    for (const auto& d : shape) {
      KT_REQUIRE(d.is_number_unsigned(), where(), "tensor '", shown, "': shape entry ", printable(d.dump(), 40),
                 " is not a non-negative integer");
      const auto extent = d.get<std::uint64_t>();
      KT_REQUIRE(extent <= static_cast<std::uint64_t>(INT64_MAX), where(), "tensor '", shown, "': shape entry ", extent,
                 " is too large");
      if (extent != 0 && numel > UINT64_MAX / 8 / extent) overflow = true;
      numel *= extent;
      dims.push_back(static_cast<std::int64_t>(extent));
    }
    KT_REQUIRE(!overflow, where(), "tensor '", shown, "': the shape's byte count overflows");
    e.shape = Shape(dims);
    const auto& offsets = value.contains("data_offsets") ? value["data_offsets"] : nlohmann::json();
    KT_REQUIRE(offsets.is_array() && offsets.size() == 2 && offsets[0].is_number_unsigned() &&
                   offsets[1].is_number_unsigned(),
               where(), "tensor '", shown, "' has no data_offsets [begin, end] of non-negative integers");
    e.begin = offsets[0].get<std::uint64_t>();
    e.end = offsets[1].get<std::uint64_t>();
    KT_REQUIRE(e.begin <= e.end && e.end <= data_size, where(), "tensor '", shown, "': data_offsets [", e.begin, ", ",
               e.end, "] lie outside the ", data_size, " data bytes");
    const std::uint64_t bytes = numel * static_cast<std::uint64_t>(type->bytes);
    KT_REQUIRE(e.end - e.begin == bytes, where(), "tensor '", shown, "': data_offsets [", e.begin, ", ", e.end,
               "] hold ", e.end - e.begin, " bytes but ", e.dtype, " ", e.shape.str(), " needs ", bytes);
    out.entries.push_back(std::move(e));
  }
  // The tensors tile the data: sorted by offset, each starts where the previous ended.
  std::sort(out.entries.begin(), out.entries.end(),
            [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.begin < b.begin || (a.begin == b.begin && a.end < b.end); });
  std::uint64_t expected = 0;
  for (const auto& e : out.entries) {
    KT_REQUIRE(e.begin == expected, where(), "tensor '", printable(e.name), "' starts at data offset ", e.begin, " but ",
               e.begin < expected ? "overlaps the previous tensor, which ends at " : "the previous tensor ends at ",
               expected, e.begin < expected ? "" : " (a hole)");
    expected = e.end;
  }
  KT_REQUIRE(expected == data_size, where(), data_size - expected, " bytes after the last tensor, from byte offset ",
             out.data_start + expected, " (trailing data)");
  return out;
}

}  // namespace kt::impl
