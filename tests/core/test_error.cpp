#include "kt_test.hpp"

#include <stdexcept>

TEST_CASE("kt::Error carries the message and the throwing location") {
  try {
    KT_REQUIRE(1 + 1 == 3, "kt::test: expected ", 3, " got ", 2);
    FAIL("KT_REQUIRE did not throw");
  } catch (const kt::Error& e) {
    CHECK(e.message() == "kt::test: expected 3 got 2");
    CHECK(std::string(e.file()).find("test_error.cpp") != std::string::npos);
    CHECK(e.line() > 0);
    CHECK(std::string(e.what()).find("test_error.cpp:") != std::string::npos);
  }
}

TEST_CASE("kt::Error is a std::runtime_error and KT_REQUIRE passes silently when true") {
  CHECK_THROWS_AS(KT_THROW("kt::test: boom"), std::runtime_error);
  CHECK_NOTHROW(KT_REQUIRE(true, "never"));
  CHECK(kt_test::error_of([] { KT_THROW("kt::test: ", 1.5, " and ", "text"); }) == "kt::test: 1.5 and text");
}
