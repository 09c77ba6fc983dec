#pragma once
/// \file kt/io/safetensors.hpp
/// Tensors to and from safetensors files, the format Hugging Face and PyTorch
/// (`safetensors.torch.save_file` / `load_file`) read and write.
///
///     kt::io::save_safetensors("model.safetensors", model.state_dict(), {{"format", "pt"}});
///     auto file = kt::io::load_safetensors("model.safetensors");
///     for (const auto& name : file.names()) std::cout << name << " " << file.shape(name) << "\n";
///     auto w = file.get<float, kt::DefaultDevice>("0.weight");   // dtype must match: F32
///
/// Writing is atomic (a temporary file, fsync, rename, fsync of the folder) and records an
/// XXH64 checksum of every tensor and of the metadata (impl/safetensors_checksums.hpp). Reading
/// treats the file as hostile: every claim of the header is checked before anything is
/// allocated from it (impl/safetensors_header.hpp); a tensor's bytes are read only when it is
/// asked for, so memory stays bounded by the tensors you load, and verified against the
/// checksum the file records. A SafetensorsFile keeps the file it opened: every read comes
/// from that one file, whatever happens to the path meanwhile (a newer checkpoint renamed
/// over it). Only regular files are read (a FIFO or device is a kt::Error, never a hang).
/// Little-endian hosts only (as the format).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_checksums.hpp"
#include "kt/io/impl/safetensors_dtype.hpp"
#include "kt/io/impl/safetensors_header.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kt::io {

class SafetensorsOptions {
public:
  /// The largest header a file may declare (default 100 MB, as the reference implementation).
  SafetensorsOptions& max_header_bytes(std::uint64_t n) { max_header_bytes_ = n; return *this; }
  std::uint64_t max_header_bytes() const { return max_header_bytes_; }
  /// Reading: verify each tensor read (and the metadata) against the checksums the file
  /// records (default true; files without checksums load unverified either way).
  SafetensorsOptions& verify_checksums(bool on) { verify_checksums_ = on; return *this; }
  bool verify_checksums() const { return verify_checksums_; }
  /// Writing: record the checksums (default true).
  SafetensorsOptions& write_checksums(bool on) { write_checksums_ = on; return *this; }
  bool write_checksums() const { return write_checksums_; }

private:
  std::uint64_t max_header_bytes_ = 100'000'000;
  bool verify_checksums_ = true;
  bool write_checksums_ = true;
};

/// An opened, validated safetensors file: names, dtypes, shapes and metadata; tensors are read
/// on request, from the file as it was opened. Copies share the open file.
class SafetensorsFile {
public:
  SafetensorsFile(std::string path, std::shared_ptr<const impl::InputFile> file, impl::SafetensorsHeader header,
                  impl::SafetensorsChecksums checksums)
      : path_(std::move(path)), file_(std::move(file)), header_(std::move(header)), checksums_(std::move(checksums)) {}
  const std::string& path() const { return path_; }
  /// Tensor names in file order (by data offset).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(header_.entries.size());
    for (const auto& e : header_.entries) out.push_back(e.name);
    return out;
  }
  bool contains(const std::string& name) const { return header_.index.count(name) > 0; }
  /// The stored dtype's name in the format ("F32", "BF16", "I64", ...).
  const std::string& dtype(const std::string& name) const { return entry(name).dtype; }
  const Shape& shape(const std::string& name) const { return entry(name).shape; }
  /// The `__metadata__` strings (kt's checksum entry "kt.xxh64" among them when present).
  const std::map<std::string, std::string>& metadata() const { return header_.metadata; }
  /// Whether get(name) verifies a checksum (the file records one and verification is on).
  bool has_checksum(const std::string& name) const {
    (void)entry(name);
    return checksums_.tensors.count(name) > 0;
  }

  /// The tensor `name` on device D. T must be the stored dtype (no silent conversion; a BOOL
  /// tensor loads as uint8). kt::Error when the bytes cannot be read or do not match the
  /// checksum the file records.
  template <class T, class D = Host>
  Tensor<T, D> get(const std::string& name) const {
    const auto& e = entry(name);
    KT_REQUIRE(impl::safetensors_loads_as<T>(e.dtype), "kt::io::SafetensorsFile::get: tensor '", impl::printable(name),
               "' in '", impl::printable(path_, 200), "' is ", e.dtype, ", not ", impl::safetensors_name<T>(), " (",
               dtype_name<T>(), ")");
    Tensor<T, Host> host(e.shape);
    read_bytes(e, reinterpret_cast<unsigned char*>(host.data()));
    if constexpr (std::is_same_v<D, Host>) return host;
    else return host.template to<D>();
  }

private:
  const impl::SafetensorsEntry& entry(const std::string& name) const {
    const auto it = header_.index.find(name);
    KT_REQUIRE(it != header_.index.end(), "kt::io::SafetensorsFile: no tensor '", impl::printable(name), "' in '",
               impl::printable(path_, 200), "'");
    return header_.entries[it->second];
  }
  // Reads `e`'s bytes into `dst` in blocks, each hashed while it is still in cache.
  void read_bytes(const impl::SafetensorsEntry& e, unsigned char* dst) const;
  std::string path_;
  std::shared_ptr<const impl::InputFile> file_;
  impl::SafetensorsHeader header_;
  impl::SafetensorsChecksums checksums_;
};

/// Opens and validates `path`; kt::Error names the file, the tensor and the field at fault.
KT_INLINE_UNLESS_COMPILED SafetensorsFile load_safetensors(const std::string& path,
                                                           const SafetensorsOptions& options = {});

/// Writes `tensors` in their order, with string `metadata` (`__metadata__`), atomically; with
/// the checksums (the entry "kt.xxh64", replacing one `metadata` may hold) unless `options`
/// say otherwise.
KT_INLINE_UNLESS_COMPILED void save_safetensors(const std::string& path, const NamedTensors& tensors,
                                                std::map<std::string, std::string> metadata = {},
                                                const SafetensorsOptions& options = {});

/// The same for tensors of one dtype and device, given as (name, tensor) pairs, e.g.
/// `model.state_dict()`. Names must be unique and non-empty; every tensor defined.
template <class T, class D>
void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor<T, D>>>& tensors,
                      const std::map<std::string, std::string>& metadata = {}, const SafetensorsOptions& options = {}) {
  NamedTensors list;
  for (const auto& [name, t] : tensors) list.add(name, t);
  save_safetensors(path, list, metadata, options);
}

}  // namespace kt::io

// The reader and writer, defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)
#include "kt/io/impl/safetensors_impl.hpp"
#endif

#include "kt/core/impl/public_end.hpp"
