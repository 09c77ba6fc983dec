#pragma once
// Streams values into one string: the message of a kt::Error.

#include "kt/core/impl/internal.hpp"

#include <sstream>
#include <string>

namespace kt::impl {

/// Streams every argument into one string (the message of a kt::Error).
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

}  // namespace kt::impl
