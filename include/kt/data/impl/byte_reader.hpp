#pragma once
// Reads a file's bytes in order, plain or gzip-compressed (detected by the gzip magic 1f 8b),
// and turns every failure (missing file, short read, zlib error) into a kt::Error that names
// the caller, the file and the offset in the (uncompressed) byte stream.

#include "kt/core/error.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace kt::impl {

class ByteReader {
public:
  ByteReader(std::string path, const char* who) : path_(std::move(path)), who_(who) {
    std::FILE* probe = std::fopen(path_.c_str(), "rb");
    if (probe == nullptr)
      KT_THROW(who_, ": cannot open '", path_, "': ", std::strerror(errno));
    unsigned char magic[2] = {0, 0};
    const std::size_t got = std::fread(magic, 1, 2, probe);
    gzip_ = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (!gzip_ && std::fseek(probe, 0, SEEK_END) == 0) file_size_ = std::ftell(probe);
    if (gzip_) {
      std::fclose(probe);
      gz_ = gzopen(path_.c_str(), "rb");
      if (gz_ == nullptr) KT_THROW(who_, ": cannot open '", path_, "' with zlib");
      gzbuffer(gz_, 1 << 17);
    } else {
      std::rewind(probe);
      file_ = probe;
    }
  }
  ~ByteReader() {
    if (gz_ != nullptr) gzclose(gz_);
    if (file_ != nullptr) std::fclose(file_);
  }
  ByteReader(const ByteReader&) = delete;
  ByteReader& operator=(const ByteReader&) = delete;

  bool gzip() const { return gzip_; }
  /// Size of a plain file in bytes (-1 for gzip: unknown until decompressed).
  std::int64_t file_size() const { return gzip_ ? -1 : file_size_; }
  /// Bytes read so far (uncompressed offset).
  std::int64_t offset() const { return offset_; }
  const std::string& path() const { return path_; }

  /// Reads up to n bytes; returns how many were read (fewer only at the end of the data).
  /// A damaged gzip stream throws.
  std::size_t read_some(void* dst, std::size_t n) {
    auto* out = static_cast<unsigned char*>(dst);
    std::size_t total = 0;
    while (total < n) {
      const std::size_t want = std::min<std::size_t>(n - total, std::size_t{1} << 30);
      std::size_t got = 0;
      if (gzip_) {
        const int r = gzread(gz_, out + total, static_cast<unsigned>(want));
        int errnum = Z_OK;
        const char* message = gzerror(gz_, &errnum);
        if (r < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
          const std::int64_t at = offset_ + static_cast<std::int64_t>(total) + (r > 0 ? r : 0);
          KT_THROW(who_, ": '", path_, "': ",
                   errnum == Z_BUF_ERROR ? "truncated gzip stream" : "corrupt gzip stream",
                   " at uncompressed byte offset ", at, " (zlib: ", message, ")");
        }
        got = static_cast<std::size_t>(r);
      } else {
        got = std::fread(out + total, 1, want, file_);
        if (got < want && std::ferror(file_))
          KT_THROW(who_, ": '", path_, "': read error at byte offset ",
                   offset_ + static_cast<std::int64_t>(total + got), ": ", std::strerror(errno));
      }
      total += got;
      if (got < want) break;
    }
    offset_ += static_cast<std::int64_t>(total);
    return total;
  }

  /// True when no byte is left (a damaged gzip tail, e.g. a bad CRC, throws here).
  bool at_end() {
    unsigned char byte;
    const bool end = read_some(&byte, 1) == 0;
    if (!end) --offset_;  // report positions of the data, not of this probe
    return end;
  }

private:
  std::string path_;
  const char* who_;
  bool gzip_ = false;
  std::int64_t file_size_ = -1;
  std::int64_t offset_ = 0;
  std::FILE* file_ = nullptr;
  gzFile gz_ = nullptr;
};

}  // namespace kt::impl
