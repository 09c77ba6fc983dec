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

#include "kt/core/error.hpp"
#include "kt/core/impl/json_quote.hpp"
#include "kt/core/impl/printable.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kt::impl {

/// A JSON value: null, a boolean, a number, a string, an array, or an object whose members keep
/// the order they were added or read in.
class Json {
public:
  enum class Kind : unsigned char { null, boolean, unsigned_integer, signed_integer, floating, string, array, object };
  using Member = std::pair<std::string, Json>;

  Json() = default;
  Json(std::nullptr_t) {}  // NOLINT: null
  Json(bool b) : kind_(Kind::boolean), u_(b) {}  // NOLINT: values convert, as in JSON libraries
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  Json(I v) {  // NOLINT
    if constexpr (std::is_signed_v<I>) {
      if (v < 0) {
        kind_ = Kind::signed_integer;
        i_ = static_cast<std::int64_t>(v);
        return;
      }
    }
    kind_ = Kind::unsigned_integer;
    u_ = static_cast<std::uint64_t>(v);
  }
  Json(double v) : kind_(Kind::floating), d_(v) {}  // NOLINT
  Json(std::string s) : kind_(Kind::string), s_(std::move(s)) {}  // NOLINT
  Json(const char* s) : Json(std::string(s)) {}  // NOLINT
  static Json array(std::vector<Json> elements = {}) {
    Json j;
    j.kind_ = Kind::array;
    j.a_ = std::move(elements);
    return j;
  }
  /// An object of `members` (keys assumed distinct).
  static Json object(std::vector<Member> members = {}) {
    Json j;
    j.kind_ = Kind::object;
    j.o_ = std::move(members);
    return j;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::null; }
  bool is_bool() const { return kind_ == Kind::boolean; }
  bool is_number() const { return kind_ == Kind::unsigned_integer || kind_ == Kind::signed_integer || kind_ == Kind::floating; }
  /// A non-negative integer, written without fraction or exponent.
  bool is_unsigned() const { return kind_ == Kind::unsigned_integer; }
  bool is_string() const { return kind_ == Kind::string; }
  bool is_array() const { return kind_ == Kind::array; }
  bool is_object() const { return kind_ == Kind::object; }

  // The value, for a Json of that kind (the caller checks the kind first).
  bool as_bool() const { return u_ != 0; }
  std::uint64_t as_unsigned() const { return u_; }
  double as_double() const {
    return kind_ == Kind::floating ? d_ : kind_ == Kind::signed_integer ? static_cast<double>(i_) : static_cast<double>(u_);
  }
  const std::string& as_string() const { return s_; }
  const std::vector<Json>& elements() const { return a_; }
  const std::vector<Member>& members() const { return o_; }
  /// Elements of an array or members of an object.
  std::size_t size() const { return kind_ == Kind::object ? o_.size() : a_.size(); }

  /// The member `key` of an object, or nullptr (also when this is no object).
  const Json* find(std::string_view key) const {
    for (const auto& m : o_)
      if (m.first == key) return &m.second;
    return nullptr;
  }
  /// The member `key` of an object, or a null when there is none.
  const Json& get(std::string_view key) const {
    static const Json none;
    const Json* v = find(key);
    return v ? *v : none;
  }
  /// The member `key`, added as null at the end if there is none (this becomes an object).
  Json& operator[](const std::string& key) {
    if (kind_ != Kind::object) *this = object();
    for (auto& m : o_)
      if (m.first == key) return m.second;
    o_.emplace_back(key, Json());
    return o_.back().second;
  }
  /// Appends to an array (this becomes one).
  void push_back(Json v) {
    if (kind_ != Kind::array) *this = array();
    a_.push_back(std::move(v));
  }

  /// Compact JSON text. A double is written in the fewest digits that read back to the same
  /// value, with ".0" when it is integral (it stays a double); NaN and infinities as null, as
  /// JSON has none. kt::Error if a string is not valid UTF-8 (no JSON reader would take it).
  std::string dump() const {
    std::string out;
    dump_to(out);
    return out;
  }
  void dump_to(std::string& out) const;

  /// Same kind and value; numbers by value (1, 1.0 and an unsigned 1 are equal).
  friend KT_INLINE_UNLESS_COMPILED bool operator==(const Json& a, const Json& b);
  friend bool operator!=(const Json& a, const Json& b) { return !(a == b); }

private:
  friend class JsonReader;  // reads "-0" as a signed integer, as it is written
  Kind kind_ = Kind::null;
  std::uint64_t u_ = 0;
  std::int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  std::vector<Json> a_;
  std::vector<Member> o_;
};

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

KT_INLINE_UNLESS_COMPILED void Json::dump_to(std::string& out) const {
  char buf[32];
  switch (kind_) {
    case Kind::null: out += "null"; return;
    case Kind::boolean: out += u_ ? "true" : "false"; return;
    case Kind::unsigned_integer: out.append(buf, std::to_chars(buf, buf + sizeof buf, u_).ptr); return;
    case Kind::signed_integer: out.append(buf, std::to_chars(buf, buf + sizeof buf, i_).ptr); return;
    case Kind::floating: {
      if (!std::isfinite(d_)) {
        out += "null";
        return;
      }
      const std::string_view digits(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, d_).ptr - buf));
      out += digits;
      if (digits.find_first_of(".e") == std::string_view::npos) out += ".0";
      return;
    }
    case Kind::string:
      for (std::size_t i = 0; i < s_.size();) {
        const std::size_t n = static_cast<unsigned char>(s_[i]) < 0x80 ? 1 : utf8_sequence_length(s_, i);
        KT_REQUIRE(n > 0, "kt: JSON text is UTF-8, but the string '", printable(s_), "' holds the byte ",
                   printable(s_.substr(i, 1)), " at offset ", i, ", which is not valid UTF-8 there");
        i += n;
      }
      out += json_quote(s_);
      return;
    case Kind::array:
      out += '[';
      for (std::size_t i = 0; i < a_.size(); ++i) {
        if (i > 0) out += ',';
        a_[i].dump_to(out);
      }
      out += ']';
      return;
    case Kind::object:
      out += '{';
      for (std::size_t i = 0; i < o_.size(); ++i) {
        if (i > 0) out += ',';
        Json(o_[i].first).dump_to(out);
        out += ':';
        o_[i].second.dump_to(out);
      }
      out += '}';
      return;
  }
}

KT_INLINE_UNLESS_COMPILED bool operator==(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    using K = Json::Kind;
    if (a.kind_ != K::floating && b.kind_ != K::floating) {  // exact: no detour through double
      const auto as_signed = [](const Json& j, std::int64_t& v) {
        if (j.kind_ == K::signed_integer) return v = j.i_, true;
        return j.u_ <= static_cast<std::uint64_t>(INT64_MAX) && (v = static_cast<std::int64_t>(j.u_), true);
      };
      if (a.kind_ == K::unsigned_integer && b.kind_ == K::unsigned_integer) return a.u_ == b.u_;
      std::int64_t x = 0, y = 0;
      return as_signed(a, x) && as_signed(b, y) && x == y;
    }
    return a.as_double() == b.as_double();
  }
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case Json::Kind::boolean: return a.u_ == b.u_;
    case Json::Kind::string: return a.s_ == b.s_;
    case Json::Kind::array: return a.a_ == b.a_;
    case Json::Kind::object: return a.o_ == b.o_;
    default: return true;  // null
  }
}

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
