#pragma once
// The CSV parser behind kt::read_csv: numeric cells only, one sample per line.

#include "kt/core/error.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kt::impl {

inline std::string read_text_file(const std::string& path, const char* who) {
  std::ifstream in(path, std::ios::binary);
  if (!in) KT_THROW(who, ": cannot open '", path, "': ", std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) KT_THROW(who, ": '", path, "': read error");
  return text.str();
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

/// The cells of one line, trimmed (no quoted delimiters: numeric CSV only).
inline void split_cells(std::string_view line, char delimiter, std::vector<std::string_view>& cells) {
  cells.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(delimiter, start);
    cells.push_back(trim(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

/// Parses a whole cell as a number; false when it is empty or has anything else in it.
inline bool parse_number(std::string_view cell, double& value) {
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  if (cell.empty()) return false;
  const auto result = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  return result.ec == std::errc() && result.ptr == cell.data() + cell.size();
}

}  // namespace kt::impl
