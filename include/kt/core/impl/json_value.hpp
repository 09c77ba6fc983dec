#pragma once
// A JSON value as kt builds and reads it (kt/core/impl/json.hpp reads the text): null, bool,
// exact 64-bit integers, doubles, strings, arrays and objects in member order, and its compact
// text (shortest round-trip doubles).

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/json_quote.hpp"
#include "kt/core/impl/printable.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
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

#endif

}  // namespace kt::impl
