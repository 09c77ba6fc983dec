#pragma once
/// \file kt/core/error.hpp
/// kt's one exception type and the macros that throw it with the source location.
///
///     KT_REQUIRE(a.shape() == b.shape(), "kt::copy: shapes differ: ", a.shape(), " vs ", b.shape());

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/concat.hpp"

#include <stdexcept>
#include <string>

namespace kt {

/// Every precondition failure, I/O problem or resource exhaustion in kt throws kt::Error.
/// `what()` is the message followed by " [file:line]"; `message()` is the message alone.
class Error : public std::runtime_error {
public:
  Error(const std::string& message, const char* file, int line)
      : std::runtime_error(message + " [" + file + ":" + std::to_string(line) + "]"),
        message_(message), file_(file), line_(line) {}

  const std::string& message() const noexcept { return message_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

private:
  std::string message_;
  const char* file_;
  int line_;
};

}  // namespace kt

/// Throws kt::Error with the streamed arguments as the message and the caller's location.
#define KT_THROW(...) throw ::kt::Error(::kt::impl::concat(__VA_ARGS__), __FILE__, __LINE__)

/// Host precondition: throws kt::Error with the streamed message unless `cond` holds.
/// Device code never throws; it never uses this macro.
#define KT_REQUIRE(cond, ...)      \
  do {                             \
    if (!(cond)) KT_THROW(__VA_ARGS__); \
  } while (false)

#include "kt/core/impl/public_end.hpp"
