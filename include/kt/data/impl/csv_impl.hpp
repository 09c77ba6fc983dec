#pragma once
// The CSV parser behind kt::read_csv: numeric cells, one sample per line. Lines end in \n,
// \r\n or a lone \r; cells may be quoted as in RFC 4180 ("1.5", a doubled "" inside), but a
// quoted cell cannot span lines. Integer labels are parsed as integers (never through
// double), every narrowing is checked, and untrusted text is echoed through printable().

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/data/csv_options.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kt::impl {

/// The whole file, without a leading UTF-8 byte-order mark (every Excel export has one). A
/// regular file only (a FIFO or device is refused before it could block), of at most
/// `max_bytes` bytes: checked against its size first and again while reading (it may grow).
inline std::string read_text_file(const std::string& path, const char* who, std::int64_t max_bytes) {
  const InputFile in(path, path, who);
  const auto cap = static_cast<std::uint64_t>(max_bytes);
  if (in.size() > cap)
    KT_THROW(who, ": '", path, "' has ", in.size(), " bytes, over the limit of ", max_bytes,
             " bytes (raise it with kt::CsvOptions().max_bytes(n))");
  std::string s(static_cast<std::size_t>(in.size()), '\0');
  std::uint64_t have = 0;
  while (true) {
    if (have == s.size()) {
      if (have >= cap + 1) break;
      s.resize(static_cast<std::size_t>(std::min<std::uint64_t>(cap + 1, std::max<std::uint64_t>(4096, 2 * have))));
    }
    const std::int64_t got = in.read_at(s.data() + have, s.size() - have, have);
    if (got < 0) KT_THROW(who, ": '", path, "': read error at byte offset ", have, ": ", std::strerror(errno));
    if (got == 0) break;
    have += static_cast<std::uint64_t>(got);
  }
  if (have > cap)
    KT_THROW(who, ": '", path, "' grew past the limit of ", max_bytes, " bytes while it was read (raise it with "
             "kt::CsvOptions().max_bytes(n))");
  s.resize(static_cast<std::size_t>(have));
  if (s.compare(0, 3, "\xEF\xBB\xBF") == 0) s.erase(0, 3);
  return s;
}

/// The next line of `text` from `pos` (ending in \n, \r\n or \r); false at the end.
inline bool next_line(std::string_view text, std::size_t& pos, std::string_view& line) {
  if (pos >= text.size()) return false;
  const std::size_t end = text.find_first_of("\r\n", pos);
  if (end == std::string_view::npos) {
    line = text.substr(pos);
    pos = text.size();
  } else {
    line = text.substr(pos, end - pos);
    pos = end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
  }
  return true;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// The cells of one line, trimmed and unquoted into `storage`. Returns an error text for a
/// malformed quoted cell, empty on success.
inline std::string split_cells(std::string_view line, char delimiter, std::vector<std::string>& cells) {
  cells.clear();
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::string cell;
    if (i < line.size() && line[i] == '"') {
      const std::size_t open = i++;
      while (true) {
        if (i >= line.size()) return "the quoted cell starting at character " + std::to_string(open + 1) + " is not closed on its line";
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') cell += '"', i += 2;
          else break;
        } else {
          cell += line[i++];
        }
      }
      ++i;  // the closing quote
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i < line.size() && line[i] != delimiter)
        return "text after the closing quote of the cell starting at character " + std::to_string(open + 1);
    } else {
      const std::size_t end = std::min(line.find(delimiter, i), line.size());
      cell = std::string(trim(line.substr(i, end - i)));
      i = end;
    }
    cells.push_back(std::move(cell));
    if (i >= line.size()) return {};
    ++i;  // the delimiter
  }
}

/// A cell as a finite-or-not double: nullopt when it is not a number at all; `overflow` set
/// when it is one beyond double's range (1e400).
inline std::optional<double> parse_double(std::string_view cell, bool& overflow) {
  overflow = false;
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  if (cell.empty()) return std::nullopt;
  double value = 0;
  const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (r.ptr != cell.data() + cell.size()) return std::nullopt;
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow or underflow: strtod tells them apart (HUGE_VAL vs a tiny value).
    const std::string copy(cell);
    value = std::strtod(copy.c_str(), nullptr);
    overflow = std::isinf(value);
    return value;
  }
  if (r.ec != std::errc()) return std::nullopt;
  return value;
}

/// A cell as an integer, parsed as one: "12", "+3", "-7"; whole numbers written as floating
/// text ("3.0", "1e3") are accepted while they are exact (|v| <= 2^53). Error text or empty.
inline std::string parse_integer(std::string_view cell, std::int64_t& value) {
  std::string_view digits = cell;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  if (digits.empty()) return "is not a number";
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (r.ptr == digits.data() + digits.size()) {
    if (r.ec == std::errc::result_out_of_range) return "is out of range for int64";
    if (r.ec == std::errc()) return {};
  }
  bool overflow = false;
  const auto d = parse_double(cell, overflow);
  if (!d) return "is not a number";
  if (!std::isfinite(*d) || *d != std::floor(*d)) return "is not a whole number";
  if (std::fabs(*d) > 9007199254740992.0) return "is a whole number too large to be exact in floating notation (write its digits)";
  value = static_cast<std::int64_t>(*d);
  return {};
}

}  // namespace kt::impl
