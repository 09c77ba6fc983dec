#pragma once
// Out-of-line functions of kt/io/safetensors.hpp: the reader and the writer (included at its end
// unless kt_compiled defines them, kt/core/impl/compiled.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/atomic_file.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_checksums.hpp"
#include "kt/io/impl/safetensors_header.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/io/safetensors.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kt::io {

KT_INLINE_UNLESS_COMPILED void SafetensorsFile::read_bytes(const impl::SafetensorsEntry& e, unsigned char* dst) const {
  const std::uint64_t bytes = e.end - e.begin, at = header_.data_start + e.begin;
  const auto sum = checksums_.tensors.find(e.name);
  const bool verify = sum != checksums_.tensors.end();
  impl::Xxh64 hash;
  constexpr std::uint64_t block = std::uint64_t{1} << 18;
  for (std::uint64_t done = 0; done < bytes;) {
    const std::uint64_t want = std::min(block, bytes - done);
    const std::int64_t got = file_->read_at(dst + done, want, at + done);
    KT_REQUIRE(got == static_cast<std::int64_t>(want), "kt::io::SafetensorsFile::get: cannot read tensor '",
               impl::printable(e.name), "' (", bytes, " bytes at byte offset ", at, ") from '",
               impl::printable(path_, 200), "': ",
               got < 0 ? std::string(std::strerror(errno)) : "the file ends at byte offset " + std::to_string(at + done + static_cast<std::uint64_t>(got)) + " (cut since it was opened?)");
    if (verify) hash.update(dst + done, want);
    done += want;
  }
  KT_REQUIRE(!verify || hash.digest() == sum->second, "kt::io::SafetensorsFile::get: tensor '",
             impl::printable(e.name), "' in '", impl::printable(path_, 200), "' does not match its checksum: the file "
             "records xxh64 ", impl::hex64(sum->second), ", its ", bytes, " bytes hash to ", impl::hex64(hash.digest()),
             " (the file is damaged; kt::io::SafetensorsOptions().verify_checksums(false) reads it anyway)");
}

KT_INLINE_UNLESS_COMPILED SafetensorsFile load_safetensors(const std::string& path, const SafetensorsOptions& options) {
  const std::string shown = impl::printable(path, 200);
  auto file = std::make_shared<const impl::InputFile>(path, shown, "kt::io::load_safetensors");
  auto header = impl::read_safetensors_header(*file, path, options.max_header_bytes());
  impl::SafetensorsChecksums sums;
  if (options.verify_checksums()) {
    const std::string where = "kt::io::load_safetensors: '" + shown + "': ";
    sums = impl::read_checksums(header.metadata, where);
    const auto recorded = sums.metadata;
    const auto actual = sums.has_metadata ? impl::metadata_checksum(header.metadata) : recorded;
    KT_REQUIRE(recorded == actual, where, "the metadata does not match its checksum: the file "
               "records xxh64 ", impl::hex64(recorded), ", the metadata hashes to ", impl::hex64(actual),
               " (the file is damaged; kt::io::SafetensorsOptions().verify_checksums(false) reads it anyway)");
    for (const auto& [name, value] : sums.tensors) {
      (void)value;
      KT_REQUIRE(header.index.count(name), where, "the metadata entry '", impl::checksum_key, "' has a checksum for '",
                 impl::printable(name), "', a tensor the file does not hold");
    }
  }
  return SafetensorsFile(path, std::move(file), std::move(header), std::move(sums));
}

KT_INLINE_UNLESS_COMPILED void save_safetensors(const std::string& path, const NamedTensors& tensors,
                                                std::map<std::string, std::string> metadata,
                                                const SafetensorsOptions& options) {
  metadata.erase(impl::checksum_key);
  if (options.write_checksums()) {
    // Built as members, not through operator[]: the names are distinct (NamedTensors checks),
    // and a lookup per entry would make a file of a million tensors quadratic.
    std::vector<impl::Json::Member> sums{{"__metadata__", impl::hex64(impl::metadata_checksum(metadata))}};
    sums.reserve(tensors.entries().size() + 1);
    for (const auto& e : tensors.entries()) sums.emplace_back(e.name, impl::hex64(impl::Xxh64::of(e.data, e.bytes)));
    metadata[impl::checksum_key] = impl::Json::object(std::move(sums)).dump();
  }
  std::vector<impl::Json::Member> header;
  header.reserve(tensors.entries().size() + 1);
  if (!metadata.empty()) {
    std::vector<impl::Json::Member> meta;
    for (auto& [key, value] : metadata) meta.emplace_back(key, value);
    header.emplace_back("__metadata__", impl::Json::object(std::move(meta)));
  }
  std::uint64_t offset = 0;
  for (const auto& e : tensors.entries()) {
    const auto dims = e.shape.dims();
    std::vector<impl::Json> shape(dims.begin(), dims.end());
    header.emplace_back(e.name, impl::Json::object({{"dtype", e.dtype},
                                                   {"shape", impl::Json::array(std::move(shape))},
                                                   {"data_offsets", impl::Json::array({offset, offset + e.bytes})}}));
    offset += e.bytes;
  }
  std::string text = impl::Json::object(std::move(header)).dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  unsigned char length[8];
  for (int b = 0; b < 8; ++b) length[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(text.size()) >> (8 * b));
  write_file_atomically_with(path, [&](auto&& write) {
    write(length, 8);
    write(text.data(), text.size());
    for (const auto& e : tensors.entries())
      if (e.bytes > 0) write(e.data, e.bytes);
  });
}

}  // namespace kt::io
