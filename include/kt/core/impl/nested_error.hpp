#pragma once
// One error path for work that fails away from its caller (DataLoader workers, a dataset's
// first sample): the original exception travels as a std::exception_ptr and reaches the
// caller as a kt::Error whose message names the context and the original message, with the
// original nested inside it (std::rethrow_if_nested recovers its type).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <exception>
#include <string>

namespace kt::impl {

/// The message of the exception in `e`: kt::Error's message, what(), or a description.
inline std::string exception_message(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const Error& error) {
    return error.message();
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

/// Throws kt::Error(context + the original's message) with the original nested.
[[noreturn]] inline void throw_nested_error(const std::exception_ptr& original, const std::string& context,
                                            const char* file, int line) {
  const std::string message = context + exception_message(original);
  try {
    std::rethrow_exception(original);
  } catch (...) {
    std::throw_with_nested(Error(message, file, line));
  }
}

}  // namespace kt::impl
