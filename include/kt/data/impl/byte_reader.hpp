#pragma once
// Reads a file's bytes in order, plain or gzip-compressed (detected by the gzip magic 1f 8b),
// and turns every failure (missing file, short read, damaged gzip stream) into a kt::Error
// that names the caller, the file and the offset: "byte offset" alone is an offset in the
// (uncompressed) data; offsets in the gzip file itself are called "compressed byte offset".
//
// Gzip is inflated with zlib's inflate() (not gzread, which silently reads a concatenation of
// members and ignores junk after the last one): a file holds exactly one gzip member, and
// anything after its trailer -- a second member or other bytes -- is an error, as is a trailer
// whose CRC-32 or length does not match the data.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/printable.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace kt::impl {

/// A path for an error message: non-printable bytes escaped as \xNN; a path longer than 80
/// characters is shown as "..." and its last 80 characters (the file name is the useful end).
inline std::string display_path(std::string_view path) {
  constexpr std::size_t keep = 80;
  if (path.size() <= keep) return printable(path, keep);
  std::size_t from = path.size() - keep;
  while (from < path.size() && (static_cast<unsigned char>(path[from]) & 0xC0) == 0x80) ++from;  // UTF-8 boundary
  return "..." + printable(path.substr(from), keep);
}

class ByteReader {
public:
  ByteReader(std::string path, const char* who) : path_(std::move(path)), shown_(display_path(path_)), who_(who) {
    InputFile input(path_, shown_, who_);  // a regular file, or a kt::Error before anything blocks
    std::FILE* f = ::fdopen(input.fd(), "rb");
    if (f == nullptr) KT_THROW(who_, ": cannot open '", shown_, "': ", std::strerror(errno));
    input.release();
    file_.reset(f);
    unsigned char magic[2] = {0, 0};
    const std::size_t got = std::fread(magic, 1, 2, f);
    gzip_ = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    // The size bounds a plain file's claim before anything is allocated.
    if (std::fseek(f, 0, SEEK_END) == 0) file_size_ = std::ftell(f);
    if (std::fseek(f, 0, SEEK_SET) != 0) {
      if (file_size_ >= 0) KT_THROW(who_, ": cannot rewind '", shown_, "': ", std::strerror(errno));
      KT_THROW(who_, ": '", shown_, "' is not a seekable file");
    }
    if (gzip_) {
      in_buf_.resize(std::size_t{1} << 17);
      zs_ = std::make_unique<z_stream>();
      std::memset(zs_.get(), 0, sizeof(z_stream));
      const int r = inflateInit2(zs_.get(), 16 + MAX_WBITS);  // gzip wrapper only
      if (r != Z_OK) {
        zs_.reset();
        KT_THROW(who_, ": '", shown_, "': cannot start zlib's inflate (", r == Z_MEM_ERROR ? "out of memory" : "zlib error",
                 ")");
      }
    }
  }
  ~ByteReader() {
    if (zs_) inflateEnd(zs_.get());
  }
  ByteReader(const ByteReader&) = delete;
  ByteReader& operator=(const ByteReader&) = delete;

  bool gzip() const { return gzip_; }
  /// Size of a plain file in bytes (-1 for gzip, unknown until decompressed, and for files
  /// whose size cannot be known in advance).
  std::int64_t file_size() const { return gzip_ ? -1 : file_size_; }
  /// Bytes read so far (uncompressed offset).
  std::int64_t offset() const { return offset_; }
  const std::string& path() const { return path_; }
  /// The path as error messages show it (escaped, shortened).
  const std::string& shown_path() const { return shown_; }

  /// Reads up to n bytes; returns how many were read (fewer only at the end of the data).
  /// A damaged gzip stream throws.
  std::size_t read_some(void* dst, std::size_t n) {
    auto* out = static_cast<unsigned char*>(dst);
    const std::size_t total = gzip_ ? inflate_some(out, n) : fread_some(out, n);
    offset_ += static_cast<std::int64_t>(total);
    return total;
  }

  /// True when no byte is left. For gzip this reads up to the end of the stream, so a bad
  /// trailer (CRC-32, length), a missing trailer or data after the member throws here.
  bool at_end() {
    unsigned char byte;
    const bool end = read_some(&byte, 1) == 0;
    if (!end) --offset_;  // report positions of the data, not of this probe
    return end;
  }

private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };

  std::size_t fread_some(unsigned char* out, std::size_t n) {
    std::size_t total = 0;
    while (total < n) {
      const std::size_t want = std::min<std::size_t>(n - total, std::size_t{1} << 30);
      const std::size_t got = std::fread(out + total, 1, want, file_.get());
      if (got < want && std::ferror(file_.get()))
        KT_THROW(who_, ": '", shown_, "': read error at byte offset ", offset_ + static_cast<std::int64_t>(total + got),
                 ": ", std::strerror(errno));
      total += got;
      if (got < want) break;
    }
    return total;
  }

  /// Refills zlib's input from the file; sets in_eof_ at the end of the file.
  void refill() {
    const std::size_t got = std::fread(in_buf_.data(), 1, in_buf_.size(), file_.get());
    if (got < in_buf_.size()) {
      if (std::ferror(file_.get()))
        KT_THROW(who_, ": '", shown_, "': read error at compressed byte offset ", compressed_offset() + got, ": ",
                 std::strerror(errno));
      in_eof_ = true;
    }
    zs_->next_in = in_buf_.data();
    zs_->avail_in = static_cast<uInt>(got);
  }

  /// Bytes of the gzip file consumed by inflate so far.
  std::int64_t compressed_offset() const { return static_cast<std::int64_t>(zs_->total_in); }

  std::string zlib_message() const { return zs_->msg != nullptr ? printable(zs_->msg) : std::string("no message"); }

  std::size_t inflate_some(unsigned char* out, std::size_t n) {
    std::size_t total = 0;
    while (total < n && !stream_end_) {
      if (zs_->avail_in == 0 && !in_eof_) refill();
      const auto want = static_cast<uInt>(std::min<std::size_t>(n - total, std::size_t{1} << 30));
      zs_->next_out = out + total;
      zs_->avail_out = want;
      const int r = inflate(zs_.get(), Z_NO_FLUSH);
      total += want - zs_->avail_out;
      const std::int64_t at = offset_ + static_cast<std::int64_t>(total);
      if (r == Z_STREAM_END) {
        stream_end_ = true;
        check_nothing_after_member();
      } else if (r == Z_BUF_ERROR) {
        // No progress possible: zlib needs input and the file has none left. (With input and
        // room for output zlib always progresses; the check keeps a broken promise from spinning.)
        if (zs_->avail_in == 0 && in_eof_)
          KT_THROW(who_, ": '", shown_, "': truncated gzip stream at uncompressed byte offset ", at, " (the file's ",
                   compressed_offset(), " bytes end before the gzip trailer; zlib: unexpected end of file)");
        if (zs_->avail_in != 0)
          KT_THROW(who_, ": '", shown_, "': corrupt gzip stream at uncompressed byte offset ", at,
                   " (compressed byte offset ", compressed_offset(), "; zlib made no progress)");
      } else if (r == Z_DATA_ERROR) {
        const std::string message = zlib_message();
        if (message == "incorrect data check")
          KT_THROW(who_, ": '", shown_, "': corrupt gzip stream: the gzip trailer's CRC-32 at compressed byte offset ",
                   compressed_offset() - 4, " does not match the data (detected at the end of the stream, after ", at,
                   " uncompressed bytes; zlib: ", message, ")");
        if (message == "incorrect length check")
          KT_THROW(who_, ": '", shown_, "': corrupt gzip stream: the gzip trailer's length at compressed byte offset ",
                   compressed_offset() - 4, " does not match the ", at, " bytes of data (zlib: ", message, ")");
        KT_THROW(who_, ": '", shown_, "': corrupt gzip stream at uncompressed byte offset ", at,
                 " (compressed byte offset ", compressed_offset(), "; zlib: ", message, ")");
      } else if (r == Z_MEM_ERROR) {
        KT_THROW(who_, ": '", shown_, "': out of memory inflating the gzip stream at uncompressed byte offset ", at);
      } else if (r != Z_OK) {
        KT_THROW(who_, ": '", shown_, "': corrupt gzip stream at uncompressed byte offset ", at,
                 " (compressed byte offset ", compressed_offset(), "; zlib error ", r, ": ", zlib_message(), ")");
      }
    }
    return total;
  }

  /// After the member's trailer: the file must end. A second member (kt reads one) or any
  /// other trailing bytes are an error naming where they start.
  void check_nothing_after_member() {
    const std::int64_t end = compressed_offset();
    unsigned char next[2];
    std::size_t have = 0;
    while (have < 2) {
      if (zs_->avail_in == 0) {
        if (in_eof_) break;
        refill();
        continue;
      }
      next[have++] = *zs_->next_in++;
      --zs_->avail_in;
    }
    if (have == 0) return;
    if (have == 2 && next[0] == 0x1f && next[1] == 0x8b)
      KT_THROW(who_, ": '", shown_, "': a second gzip member starts at compressed byte offset ", end,
               ", where the first one ends (kt reads single-member gzip files: decompress and recompress "
               "concatenated ones)");
    KT_THROW(who_, ": '", shown_, "': trailing data after the gzip stream: ",
             file_size_ >= end ? std::to_string(file_size_ - end) + (file_size_ - end == 1 ? " unexpected byte" : " unexpected bytes")
                               : std::string("unexpected bytes"),
             " from compressed byte offset ", end, " to the end of the file (a gzip file ends with its 8-byte "
             "trailer)");
  }

  std::string path_;
  std::string shown_;
  const char* who_;
  bool gzip_ = false;
  std::int64_t file_size_ = -1;
  std::int64_t offset_ = 0;
  std::unique_ptr<std::FILE, FileCloser> file_;
  // gzip
  std::unique_ptr<z_stream> zs_;
  std::vector<unsigned char> in_buf_;
  bool in_eof_ = false;
  bool stream_end_ = false;
};

}  // namespace kt::impl
