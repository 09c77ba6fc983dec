#pragma once
// Echoing untrusted text (a CSV cell, a file's bytes) in an error message: at most 80
// characters, control bytes and invalid UTF-8 escaped as \xNN, so a 10 MiB cell or a NUL
// byte cannot flood or corrupt the message.

#include "kt/core/impl/internal.hpp"

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace kt::impl {

/// Length of the valid UTF-8 sequence starting at s[i] (2-4), or 0 if there is none.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte (no overlongs, surrogates)
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b >= 0xE0 && b <= 0xEF) n = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
  else if (b >= 0xF0 && b <= 0xF4) n = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
  if (n == 0 || i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

/// `text` for an error message: printable ASCII and valid UTF-8 as they are, other bytes as
/// \xNN, cut after `max_chars` characters with "... (N bytes)".
inline std::string printable(std::string_view text, std::size_t max_chars = 80) {
  std::string out;
  std::size_t chars = 0, i = 0;
  for (; i < text.size() && chars < max_chars; ++chars) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += static_cast<char>(b);
      ++i;
    } else if (const std::size_t n = b >= 0x80 ? utf8_sequence_length(text, i) : 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", b);
      out += hex;
      ++i;
    }
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace kt::impl
