#pragma once
// A JSON string literal, on its own: the profiler's Chrome trace needs only this, and kt.hpp
// includes the profiler, so it does not pull in the JSON reader (kt/core/impl/json.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"

#include <cstdio>
#include <string>
#include <string_view>

namespace kt::impl {

/// `s` as a JSON string literal: quotes, `"` and `\` escaped, control bytes as \u00XX, other
/// bytes as they are (the caller's text is UTF-8).
KT_INLINE_UNLESS_COMPILED std::string json_quote(std::string_view s);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)

KT_INLINE_UNLESS_COMPILED std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(ch)));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

#endif

}  // namespace kt::impl
