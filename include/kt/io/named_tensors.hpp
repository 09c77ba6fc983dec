#pragma once
/// \file kt/io/named_tensors.hpp
/// An ordered list of named tensors of any kt dtype and device: what one safetensors file
/// holds (`Dict[str, torch.Tensor]` for `safetensors.torch.save_file`).
///
///     kt::io::NamedTensors tensors;
///     tensors.add("weight", w).add("step", kt::full<std::int64_t>({}, 3));   // F32 and I64
///     kt::io::save_safetensors("state.safetensors", tensors);
///
/// add() takes a snapshot on the host (a device tensor is copied there, a host tensor shared):
/// later changes to a host tensor's values show in the file, as with any shared kt::Tensor.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_dtype.hpp"
#include "kt/tensor/shape.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt::io {

class NamedTensors {
public:
  /// One tensor's bytes on the host, with what the file's header says of it.
  struct Entry {
    std::string name;
    const char* dtype;             // the format's name, "F32"
    Shape shape;
    const void* data;              // numel × element size bytes, row-major
    std::size_t bytes;
    std::shared_ptr<const void> owner;  // keeps `data` alive
  };

  /// Appends `tensor` under `name` (non-empty, at most 1024 bytes, not "__metadata__", not
  /// taken); kt::Error otherwise or when the tensor is undefined.
  template <class T, class D>
  NamedTensors& add(const std::string& name, const Tensor<T, D>& tensor) {
    KT_REQUIRE(!name.empty() && name.size() <= 1024 && name != "__metadata__", "kt::io::NamedTensors::add: the name '",
               impl::printable(name), "' is empty, reserved or longer than 1024 bytes");
    KT_REQUIRE(names_.insert(name).second, "kt::io::NamedTensors::add: the name '", impl::printable(name),
               "' appears twice");
    KT_REQUIRE(tensor.defined(), "kt::io::NamedTensors::add: tensor '", impl::printable(name), "' is undefined");
    auto host = std::make_shared<Tensor<T, Host>>([&] {
      if constexpr (std::is_same_v<D, Host>) return tensor;
      else return tensor.template to<Host>();
    }());
    const std::size_t bytes = static_cast<std::size_t>(host->numel()) * sizeof(T);
    entries_.push_back({name, impl::safetensors_name<T>(), host->shape(), host->data(), bytes, host});
    return *this;
  }

  const std::vector<Entry>& entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  bool contains(const std::string& name) const { return names_.count(name) != 0; }

private:
  std::vector<Entry> entries_;
  std::set<std::string> names_;
};

}  // namespace kt::io

#include "kt/core/impl/public_end.hpp"
