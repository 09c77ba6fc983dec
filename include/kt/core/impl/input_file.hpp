#pragma once
// The readers' first check on a path: an ifstream opens a directory and reads nothing from
// it, which would look like an empty file, so a directory is refused by name.

#include "kt/core/error.hpp"

#include <filesystem>
#include <string>
#include <system_error>

namespace kt::impl {

/// kt::Error "<who>: '<shown>' is a directory, not a file" when `path` names a directory
/// (`shown`: the path as the caller's messages print it).
inline void require_not_directory(const std::string& path, const std::string& shown, const char* who) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) KT_THROW(who, ": '", shown, "' is a directory, not a file");
}

}  // namespace kt::impl
