// kt's JSON reader and writer (kt/core/impl/json.hpp), checked against nlohmann-json as an
// independent reference: what one writes the other reads back equal, both refuse the same
// malformed texts, and kt says where each stops being JSON.
#define KT_USES_INTERNALS
#include "kt/core/impl/json.hpp"

#include "kt_test.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using kt::impl::Json;
using kt::impl::JsonError;

/// kt's parse of `text`, or nullopt-like: ok false.
struct Parsed {
  bool ok;
  Json value;
  JsonError error;
};
Parsed kt_parse(const std::string& text, int max_depth = 128) {
  Parsed p;
  p.ok = kt::impl::json_parse(text, p.value, p.error, max_depth);
  return p;
}

/// A random JSON value of at most `depth` levels: strings mix ASCII, escapes' characters,
/// control bytes and 2-, 3- and 4-byte UTF-8; numbers are integers of every range and doubles.
nlohmann::ordered_json random_value(std::mt19937_64& rng, int depth) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  switch (pick(depth > 0 ? 8 : 6)) {
    case 0: return nullptr;
    case 1: return pick(2) == 1;
    case 2: return rng();                                        // unsigned, full range
    case 3: return -static_cast<std::int64_t>(rng() >> 1) - 1;  // negative
    case 4: {
      double d;
      do {
        const std::uint64_t bits = rng();
        std::memcpy(&d, &bits, sizeof d);
      } while (!std::isfinite(d));
      return pick(2) ? d : std::ldexp(static_cast<double>(pick(1000)), -pick(30));
    }
    case 5: {
      static const char* pieces[] = {"a", "Z", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x01", "\x1f",
                                     "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f"};
      std::string s;
      for (int n = pick(12); n > 0; --n) s += pieces[pick(17)];
      return s;
    }
    case 6: {
      auto a = nlohmann::ordered_json::array();
      for (int n = pick(5); n > 0; --n) a.push_back(random_value(rng, depth - 1));
      return a;
    }
    default: {
      auto o = nlohmann::ordered_json::object();
      for (int n = pick(5); n > 0; --n) o["k" + std::to_string(pick(100))] = random_value(rng, depth - 1);
      return o;
    }
  }
}

}  // namespace

TEST_CASE("kt's JSON reads what nlohmann-json writes and writes what it reads, equal") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const auto reference = random_value(rng, 4);
    const std::string text = reference.dump(i % 2 ? 2 : -1);  // indented and compact
    const Parsed p = kt_parse(text);
    REQUIRE_MESSAGE(p.ok, text, ": ", p.error.message);
    const std::string back = p.value.dump();
    // Objects keep their members' order, so the ordered reference compares member by member;
    // every double comes back to the same bits (shortest round-trip digits).
    CHECK_MESSAGE(nlohmann::ordered_json::parse(back) == reference, text, " -> ", back);
    CHECK(kt_parse(back).value == p.value);
  }
}

TEST_CASE("kt's JSON keeps numbers as written: exact integers, doubles that stay doubles") {
  CHECK(kt_parse("18446744073709551615").value.as_unsigned() == UINT64_MAX);
  CHECK(kt_parse("18446744073709551615").value.is_unsigned());
  CHECK(kt_parse("-9223372036854775808").value.dump() == "-9223372036854775808");
  CHECK(!kt_parse("-1").value.is_unsigned());
  CHECK(!kt_parse("-0").value.is_unsigned());  // as nlohmann: a signed integer, equal to 0
  CHECK(kt_parse("-0").value == Json(0u));
  CHECK(!kt_parse("1.0").value.is_unsigned());
  CHECK(!kt_parse("1e2").value.is_unsigned());
  CHECK(kt_parse("18446744073709551616").value.as_double() == 18446744073709551616.0);  // past 64 bits: a double
  CHECK(kt_parse("0.1").value.as_double() == 0.1);
  CHECK(kt_parse("2.2250738585072014e-308").value.as_double() == std::numeric_limits<double>::min());
  CHECK(Json(1024.0).dump() == "1024.0");  // read back as a double, as nlohmann writes it
  CHECK(Json(1e-5).dump() == nlohmann::json(1e-5).dump());
  CHECK(Json(0.1).dump() == "0.1");
  CHECK(Json(std::nan("")).dump() == "null");  // JSON has no NaN: null, as nlohmann
  CHECK(Json(-INFINITY).dump() == "null");
  CHECK(Json(std::int64_t(-5)).dump() == "-5");
  CHECK(Json(1u) == Json(1.0));
  CHECK(Json(-1) == Json(-1.0));
  CHECK(Json(-1) != Json(1u));
  CHECK(Json("1") != Json(1u));
}

TEST_CASE("kt's JSON strings: escapes, surrogate pairs and UTF-8 in, control bytes escaped out") {
  CHECK(kt_parse(R"("a\"b\\c\/d\b\f\n\r\t")").value.as_string() == "a\"b\\c/d\b\f\n\r\t");
  CHECK(kt_parse(R"("\u00e9\u20AC\ud83d\ude00\u0000")").value.as_string() ==
        std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") + std::string(1, '\0'));
  CHECK(kt_parse("\"\xc3\xa9\"").value.as_string() == "\xc3\xa9");
  CHECK(Json(std::string("a\x01\n\"")).dump() == R"("a\u0001\u000a\"")");
  CHECK(nlohmann::json::parse(Json(std::string("\x1f\xf0\x9f\x98\x80")).dump()) == "\x1f\xf0\x9f\x98\x80");
  // Text that is not UTF-8 has no JSON form: a kt::Error naming the string, not a bad file.
  const std::string error = kt_test::error_of([] { (void)Json(std::string("ab\xff")).dump(); });
  CHECK(error.find("the string 'ab\\xFF' holds the byte \\xFF at offset 2, which is not valid UTF-8") != std::string::npos);
}

TEST_CASE("kt's JSON refuses what nlohmann-json refuses, and says at which byte") {
  struct Bad {
    std::string text;
    std::size_t offset;
    const char* why;
  };
  const std::vector<Bad> bad = {
      {"", 0, "expected a value"},
      {"  ", 2, "expected a value"},
      {"[01]", 2, "expected ',' or ']'"},
      {"[1,]", 3, "expected a value"},
      {"{\"a\" 1}", 5, "expected ':'"},
      {"{\"a\":1,}", 7, "expected a string"},
      {"{a:1}", 1, "expected a string"},
      {"[1] x", 4, "expected the end of the text"},
      {"tru", 0, "expected a value"},
      {"NaN", 0, "expected a value"},
      {"-", 1, "expected a digit"},
      {".5", 0, "expected a value"},
      {"1.", 2, "expected a digit after '.'"},
      {"1e", 2, "expected a digit in the exponent"},
      {"1e400", 0, "a number out of the range of a double"},
      {"\"abc", 4, "the string does not end"},
      {"\"a\x01\"", 2, "a control character in a string"},
      {"\"\xff\"", 1, "not valid UTF-8"},
      {"\"\xc0\xaf\"", 1, "not valid UTF-8"},      // overlong
      {"\"\xed\xa0\x80\"", 1, "not valid UTF-8"},  // an encoded surrogate
      {R"("\x")", 2, "not an escape"},
      {R"("\u12G4")", 5, "expected four hex digits"},
      {R"("\ud800")", 7, "a high surrogate escape without its low half"},
      {R"("\ud800\u0041")", 7, "a high surrogate escape without its low half"},
      {R"("\udc00")", 1, "a low surrogate escape without a high one"},
  };
  for (const auto& b : bad) {
    const Parsed p = kt_parse(b.text);
    CHECK_MESSAGE(!p.ok, b.text);
    CHECK_MESSAGE(p.error.offset == b.offset, b.text, ": ", p.error.message);
    CHECK_MESSAGE(p.error.message.find(b.why) == 0, b.text, ": ", p.error.message);
    // 1e400 is the one nlohmann reads (as infinity); serde_json, the safetensors reference, refuses it.
    if (b.text != "1e400") CHECK_MESSAGE(nlohmann::json::accept(b.text) == false, b.text);
  }
}

TEST_CASE("kt's JSON refuses an object that names a key twice, which nlohmann-json would read") {
  const Parsed p = kt_parse(R"({"a":{"b":1,"b":2}})");
  CHECK(!p.ok);
  CHECK(p.error.twice);
  CHECK(p.error.key == "b");
  CHECK(p.error.offset == 12);
  CHECK(nlohmann::json::accept(R"({"a":{"b":1,"b":2}})"));
  // Past 32 members the check is by hash: the same answer.
  std::string big = "{";
  for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(kt_parse(big + "\"k7\":0}").error.key == "k7");
  CHECK(kt_parse(big + "\"k100\":0}").ok);
}

TEST_CASE("kt's JSON bounds its nesting, so hostile text cannot exhaust the stack") {
  const auto nested = [](int n) { return std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']'); };
  CHECK(kt_parse(nested(128)).ok);
  const Parsed deep = kt_parse(nested(129));
  CHECK(!deep.ok);
  CHECK(deep.error.offset == 128);
  CHECK(deep.error.message.find("nested too deep") == 0);
  CHECK(!kt_parse(nested(100000)).ok);
  CHECK(kt_parse(nested(8), 8).ok);
  CHECK(!kt_parse(nested(9), 8).ok);
}

TEST_CASE("json_parse_members hands over an object's members one at a time, in order") {
  std::vector<std::string> keys;
  std::vector<std::string> values;
  JsonError error;
  const auto collect = [&](std::string& key, Json& value) {
    keys.push_back(key);
    values.push_back(value.dump());
  };
  CHECK(kt::impl::json_parse_members(R"( {"b":[1,{"c":null}],"a":"x","b":2} )", collect, error));
  CHECK(keys == std::vector<std::string>{"b", "a", "b"});  // the caller checks its own level
  CHECK(values == std::vector<std::string>{R"([1,{"c":null}])", R"("x")", "2"});
  keys.clear();
  CHECK(kt::impl::json_parse_members("{}", collect, error));
  CHECK(keys.empty());
  CHECK(!kt::impl::json_parse_members("[1]", collect, error));
  CHECK(error.offset == 0);
  CHECK(!kt::impl::json_parse_members(R"({"a":1} x)", collect, error));
  CHECK(error.offset == 8);
  // An error the caller raises stops the parse and reaches the caller's caller.
  const std::string error_text = kt_test::error_of([] {
    JsonError e;
    (void)kt::impl::json_parse_members(R"({"a":1,"b":2})", [](std::string& key, Json&) {
      KT_REQUIRE(key != "b", "refused '", key, "'");
    }, e);
  });
  CHECK(error_text == "refused 'b'");
}

TEST_CASE("kt's JSON builds objects in order and finds their members") {
  Json o = Json::object({{"x", 1u}, {"y", Json::array({true, nullptr, "s"})}});
  o["z"] = 2.5;
  o["x"] = "replaced";
  CHECK(o.dump() == R"({"x":"replaced","y":[true,null,"s"],"z":2.5})");
  CHECK(o.find("y")->size() == 3);
  CHECK(o.find("w") == nullptr);
  CHECK(o.get("w").is_null());
  CHECK(Json(3).get("x").is_null());  // not an object: no members
  Json a;
  a.push_back(1);
  a.push_back(Json::object());
  CHECK(a.dump() == "[1,{}]");
}
