#pragma once
/// \file kt/core/atomic_file.hpp
/// Writing a file so that a crash never leaves a half-written one under the real name.
///
///     kt::write_file_atomically("run.json", json_text);   // all or nothing

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/atomic_file_impl.hpp"
#include "kt/core/impl/compiled.hpp"

#include <filesystem>
#include <string>
#include <system_error>

namespace kt {

/// Writes a file through `produce(write)`, where `write(const void* data, std::size_t bytes)`
/// appends to a temporary file in the same folder as `path`; then flushes it to disk (fsync),
/// renames it over `path` and flushes the folder: readers see the old file or the whole new
/// one, and after a power loss the name holds one of them too. On any failure (also an
/// exception from `produce`) the temporary file is removed and nothing replaces `path`;
/// kt::Error names the file and the system's reason. A process killed mid-save leaves no
/// temporary file where the file system supports unnamed ones (O_TMPFILE); elsewhere the next
/// save of the same path removes it (impl/atomic_file_impl.hpp). Streams: nothing is held in
/// memory beyond what `produce` passes.
///
/// A path that names something other than a regular file — /dev/null, /dev/stdout, a FIFO —
/// is written directly (renaming a file over it would replace the device itself); a symbolic
/// link is followed, so the link stays and its target is replaced atomically.
template <class Produce>
void write_file_atomically_with(const std::string& path_, Produce&& produce) {
  namespace fs = std::filesystem;
  KT_REQUIRE(!path_.empty(), "kt::write_file_atomically: the path is empty");
  std::error_code status_error;
  const fs::file_status status = fs::status(path_, status_error);
  if (fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status))
    return impl::write_file_directly(path_, produce);
  const std::string path = fs::is_symlink(fs::symlink_status(path_, status_error)) && fs::exists(status)
                               ? fs::canonical(path_).string()
                               : path_;
  impl::remove_stale_temporaries(path);
  impl::PendingFile file(path);
  try {
    produce([&](const void* data, std::size_t bytes) { file.write(data, bytes); });
  } catch (const Error&) {
    throw;
  } catch (...) {
    KT_THROW("kt::write_file_atomically: producing the contents of ", path, " failed with an exception that is not "
             "a kt::Error; nothing was written");
  }
  file.publish();
}

/// The same with the whole contents at once.
KT_INLINE_UNLESS_COMPILED void write_file_atomically(const std::string& path, const std::string& contents);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)

KT_INLINE_UNLESS_COMPILED void write_file_atomically(const std::string& path, const std::string& contents) {
  write_file_atomically_with(path, [&](auto&& write) { write(contents.data(), contents.size()); });
}

#endif

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
