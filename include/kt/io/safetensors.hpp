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
/// Writing is atomic (a temporary file, fsync, rename). Reading treats the file as hostile:
/// every claim of the header is checked before anything is allocated from it (see
/// impl/safetensors_header.hpp), and a tensor's bytes are read only when it is asked for, so
/// memory stays bounded by the tensors you load. Little-endian hosts only (as the format).

#include "kt/core/atomic_file.hpp"
#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/input_file.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_dtype.hpp"
#include "kt/io/impl/safetensors_header.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/tensor/tensor.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kt::io {

class SafetensorsOptions {
public:
  /// The largest header a file may declare (default 100 MB, as the reference implementation).
  SafetensorsOptions& max_header_bytes(std::uint64_t n) { max_header_bytes_ = n; return *this; }
  std::uint64_t max_header_bytes() const { return max_header_bytes_; }

private:
  std::uint64_t max_header_bytes_ = 100'000'000;
};

/// An opened, validated safetensors file: names, dtypes, shapes and metadata; tensors are read
/// on request.
class SafetensorsFile {
public:
  SafetensorsFile(std::string path, impl::SafetensorsHeader header) : path_(std::move(path)), header_(std::move(header)) {
    for (std::size_t i = 0; i < header_.entries.size(); ++i) index_[header_.entries[i].name] = i;
  }
  const std::string& path() const { return path_; }
  /// Tensor names in file order (by data offset).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : header_.entries) out.push_back(e.name);
    return out;
  }
  bool contains(const std::string& name) const { return index_.count(name) > 0; }
  /// The stored dtype's name in the format ("F32", "BF16", "I64", ...).
  const std::string& dtype(const std::string& name) const { return entry(name).dtype; }
  const Shape& shape(const std::string& name) const { return entry(name).shape; }
  const std::map<std::string, std::string>& metadata() const { return header_.metadata; }

  /// The tensor `name` on device D. T must be the stored dtype (no silent conversion; a BOOL
  /// tensor loads as uint8).
  template <class T, class D = Host>
  Tensor<T, D> get(const std::string& name) const {
    const auto& e = entry(name);
    KT_REQUIRE(impl::safetensors_loads_as<T>(e.dtype), "kt::io::SafetensorsFile::get: tensor '", impl::printable(name),
               "' in '", impl::printable(path_, 200), "' is ", e.dtype, ", not ", impl::safetensors_name<T>(), " (",
               dtype_name<T>(), ")");
    Tensor<T, Host> host(e.shape);
    const auto bytes = static_cast<std::streamsize>(e.end - e.begin);
    if (bytes > 0) {
      std::ifstream in(path_, std::ios::binary);
      in.seekg(static_cast<std::streamoff>(header_.data_start + e.begin));
      in.read(reinterpret_cast<char*>(host.data()), bytes);
      KT_REQUIRE(in && in.gcount() == bytes, "kt::io::SafetensorsFile::get: cannot read tensor '", impl::printable(name),
                 "' (", bytes, " bytes at byte offset ", header_.data_start + e.begin, ") from '",
                 impl::printable(path_, 200), "' (changed since it was opened?)");
    }
    if constexpr (std::is_same_v<D, Host>) return host;
    else return host.template to<D>();
  }

private:
  const impl::SafetensorsEntry& entry(const std::string& name) const {
    const auto it = index_.find(name);
    KT_REQUIRE(it != index_.end(), "kt::io::SafetensorsFile: no tensor '", impl::printable(name), "' in '",
               impl::printable(path_, 200), "'");
    return header_.entries[it->second];
  }
  std::string path_;
  impl::SafetensorsHeader header_;
  std::map<std::string, std::size_t> index_;
};

/// Opens and validates `path`; kt::Error names the file, the tensor and the field at fault.
inline SafetensorsFile load_safetensors(const std::string& path, const SafetensorsOptions& options = {}) {
  impl::require_not_directory(path, impl::printable(path, 200), "kt::io::load_safetensors");
  std::ifstream in(path, std::ios::binary);
  KT_REQUIRE(in, "kt::io::load_safetensors: cannot open '", impl::printable(path, 200), "': ", std::strerror(errno));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  KT_REQUIRE(!ec, "kt::io::load_safetensors: cannot size '", impl::printable(path, 200), "': ", ec.message());
  return SafetensorsFile(path, impl::read_safetensors_header(in, path, size, options.max_header_bytes()));
}

/// Writes `tensors` in their order, with string `metadata` (`__metadata__`), atomically.
inline void save_safetensors(const std::string& path, const NamedTensors& tensors,
                             const std::map<std::string, std::string>& metadata = {}) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::uint64_t offset = 0;
  for (const auto& e : tensors.entries()) {
    header[e.name] = {{"dtype", e.dtype}, {"shape", e.shape.dims()}, {"data_offsets", {offset, offset + e.bytes}}};
    offset += e.bytes;
  }
  std::string text = header.dump();
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

/// The same for tensors of one dtype and device, given as (name, tensor) pairs, e.g.
/// `model.state_dict()`. Names must be unique and non-empty; every tensor defined.
template <class T, class D>
void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor<T, D>>>& tensors,
                      const std::map<std::string, std::string>& metadata = {}) {
  NamedTensors list;
  for (const auto& [name, t] : tensors) list.add(name, t);
  save_safetensors(path, list, metadata);
}

}  // namespace kt::io
