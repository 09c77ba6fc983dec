#pragma once
// JSON as kt reads and writes it: the safetensors header and the checkpoint records.
//
// kt's own, not a JSON library's: nlohmann-json's templates cost each translation unit that
// saved or loaded a checkpoint about 0.1 MB of code and several seconds of -O3 compile time
// (docs/performance.md, "kt's own JSON for safetensors headers and checkpoint records"), where
// these are plain functions that kt_compiled defines once. What it accepts is RFC 8259 exactly, as serde_json (the reference safetensors
// reader's parser) does: UTF-8 text, strings checked for valid UTF-8 and control characters,
// \u escapes with surrogate pairs checked, no trailing commas, comments, NaN or leading zeros.
// Unlike serde_json, an object that names a key twice is refused (reading it would have to
// pick one silently). Numbers keep how they were written: an integer literal that fits 64 bits
// is exact (unsigned when not negative), anything else a double, as std::from_chars reads it
// (locale-independent, correctly rounded).
//
// Errors are values, not exceptions: the parser stops at the first byte that is not JSON and
// says where and why, and each caller words the kt::Error for its own file.


#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/json_value.hpp"
#include "kt/core/impl/printable.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kt::impl {

/// Where a text stops being JSON (a byte offset into it) and why; `twice` is set when the
/// reason is an object that names the key `key` twice.
struct JsonError {
  std::size_t offset = 0;
  std::string message;
  bool twice = false;
  std::string key;
};

/// Parses `text` (one value with optional whitespace around it) into `out`. False, with `error`
/// set, when it is not JSON or nests deeper than `max_depth` arrays and objects (the parser
/// recurses once per level, so hostile text cannot exhaust the stack).
KT_INLINE_UNLESS_COMPILED bool json_parse(std::string_view text, Json& out, JsonError& error, int max_depth = 128);

/// Parses `text`, which must be an object, one member at a time: each key and value are handed
/// to `member` as soon as they are read and then dropped, so an object of a million members
/// never exists whole. Whether a key comes twice at this level is for `member` to check (nested
/// objects are checked here). An exception from `member` ends the parse and propagates.
KT_INLINE_UNLESS_COMPILED bool json_parse_members(std::string_view text,
                                                  const std::function<void(std::string&, Json&)>& member,
                                                  JsonError& error, int max_depth = 128);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)

/// The recursive-descent reader behind json_parse and json_parse_members.
class JsonReader {
public:
  JsonReader(std::string_view text, JsonError& error, int max_depth)
      : text_(text), error_(error), max_depth_(max_depth) {}

  bool document(Json& out) { return value(out, 0) && end(); }

  bool members(const std::function<void(std::string&, Json&)>& member) {
    skip_space();
    if (!eat('{')) return fail("expected '{'");
    skip_space();
    if (eat('}')) return end();
    std::string key;
    Json v;
    do {
      skip_space();
      if (!string(key) || !colon() || !value(v, 1)) return false;
      member(key, v);
      skip_space();
    } while (eat(','));
    return (eat('}') || fail("expected ',' or '}'")) && end();
  }

private:
  bool fail(const char* why) {
    error_.offset = pos_;
    error_.message = pos_ < text_.size() ? std::string(why) + ", found '" + printable(text_.substr(pos_, 1)) + "'"
                                         : std::string(why) + ", found the end of the text";
    return false;
  }
  bool eat(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool end() {
    skip_space();
    return pos_ == text_.size() || fail("expected the end of the text");
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool colon() {
    skip_space();
    return eat(':') || fail("expected ':'");
  }

  bool value(Json& out, int depth) {
    skip_space();
    if (pos_ >= text_.size()) return fail("expected a value");
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) return fail("nested too deep");
      return c == '{' ? object(out, depth + 1) : array(out, depth + 1);
    }
    if (c == '"') {
      std::string s;
      if (!string(s)) return false;
      out = Json(std::move(s));
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number(out);
    if (literal("true")) return out = Json(true), true;
    if (literal("false")) return out = Json(false), true;
    if (literal("null")) return out = Json(), true;
    return fail("expected a value");
  }

  bool array(Json& out, int depth) {
    ++pos_;  // '['
    std::vector<Json> elements;
    skip_space();
    if (!eat(']')) {
      do {
        elements.emplace_back();
        if (!value(elements.back(), depth)) return false;
        skip_space();
      } while (eat(','));
      if (!eat(']')) return fail("expected ',' or ']'");
    }
    out = Json::array(std::move(elements));
    return true;
  }

  bool object(Json& out, int depth) {
    ++pos_;  // '{'
    std::vector<Json::Member> members;
    std::unordered_set<std::string> keys;  // for large objects only: small ones are scanned
    skip_space();
    if (!eat('}')) {
      do {
        skip_space();
        const std::size_t at = pos_;
        std::string key;
        if (!string(key)) return false;
        bool twice = false;
        if (members.size() < 32) {
          for (const auto& m : members) twice = twice || m.first == key;
        } else {
          if (keys.empty())
            for (const auto& m : members) keys.insert(m.first);
          twice = !keys.insert(key).second;
        }
        if (twice) {
          error_ = {at, "an object names the key '" + printable(key) + "' twice", true, key};
          return false;
        }
        members.emplace_back(std::move(key), Json());
        if (!colon() || !value(members.back().second, depth)) return false;
        skip_space();
      } while (eat(','));
      if (!eat('}')) return fail("expected ',' or '}'");
    }
    out = Json::object(std::move(members));
    return true;
  }

  bool number(Json& out) {
    const std::size_t start = pos_;
    const auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    const bool negative = eat('-');
    if (pos_ < text_.size() && text_[pos_] == '0') ++pos_;  // a leading zero stands alone
    else if (digits() == 0) return fail("expected a digit");
    bool integral = true;
    if (eat('.')) {
      integral = false;
      if (digits() == 0) return fail("expected a digit after '.'");
    }
    if (eat('e') || eat('E')) {
      integral = false;
      if (!eat('+')) eat('-');
      if (digits() == 0) return fail("expected a digit in the exponent");
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integral) {  // exact when it fits 64 bits, as a double (like nlohmann) when it does not
      if (!negative) {
        std::uint64_t u = 0;
        if (std::from_chars(first, last, u).ec == std::errc()) return out = Json(u), true;
      } else {
        std::int64_t i = 0;
        if (std::from_chars(first, last, i).ec == std::errc()) {
          out = Json();
          out.kind_ = Json::Kind::signed_integer;
          out.i_ = i;
          return true;
        }
      }
    }
    double d = 0;
    const auto r = std::from_chars(first, last, d);
    // Out of double's range: serde_json refuses it too ("number out of range").
    if (r.ec != std::errc() || !std::isfinite(d)) {
      pos_ = start;
      return fail("a number out of the range of a double");
    }
    out = Json(d);
    return true;
  }

  /// Four hex digits after "\u", as a code unit.
  bool hex4(unsigned& unit) {
    unit = 0;
    for (int k = 0; k < 4; ++k, ++pos_) {
      if (pos_ >= text_.size()) return fail("expected four hex digits after \\u");
      const char c = text_[pos_];
      const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (v < 0) return fail("expected four hex digits after \\u");
      unit = unit * 16 + static_cast<unsigned>(v);
    }
    return true;
  }

  bool string(std::string& out) {
    out.clear();
    if (!eat('"')) return fail("expected a string");
    while (true) {
      if (pos_ >= text_.size()) return fail("the string does not end");
      const auto b = static_cast<unsigned char>(text_[pos_]);
      if (b == '"') return ++pos_, true;
      if (b < 0x20) return fail("a control character in a string (escape it)");
      if (b >= 0x80) {
        const std::size_t n = utf8_sequence_length(text_, pos_);
        if (n == 0) return fail("not valid UTF-8");
        out.append(text_.substr(pos_, n));
        pos_ += n;
        continue;
      }
      ++pos_;
      if (b != '\\') {
        out += static_cast<char>(b);
        continue;
      }
      if (pos_ >= text_.size()) return fail("the string does not end");
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; continue;
        case 'b': out += '\b'; continue;
        case 'f': out += '\f'; continue;
        case 'n': out += '\n'; continue;
        case 'r': out += '\r'; continue;
        case 't': out += '\t'; continue;
        case 'u': break;
        default: --pos_; return fail("not an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
      }
      unsigned cp = 0;
      if (!hex4(cp)) return false;
      if (cp >= 0xDC00 && cp <= 0xDFFF) return pos_ -= 6, fail("a low surrogate escape without a high one before it");
      if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: its low half follows
        unsigned low = 0;
        if (!eat('\\') || !eat('u')) return fail("a high surrogate escape without its low half");
        if (!hex4(low)) return false;
        if (low < 0xDC00 || low > 0xDFFF) return pos_ -= 6, fail("a high surrogate escape without its low half");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      if (cp < 0x80) {
        out += static_cast<char>(cp);
      } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      }
    }
  }

  std::string_view text_;
  JsonError& error_;
  int max_depth_;
  std::size_t pos_ = 0;
};

KT_INLINE_UNLESS_COMPILED bool json_parse(std::string_view text, Json& out, JsonError& error, int max_depth) {
  return JsonReader(text, error, max_depth).document(out);
}

KT_INLINE_UNLESS_COMPILED bool json_parse_members(std::string_view text,
                                                  const std::function<void(std::string&, Json&)>& member,
                                                  JsonError& error, int max_depth) {
  return JsonReader(text, error, max_depth).members(member);
}

#endif

}  // namespace kt::impl
