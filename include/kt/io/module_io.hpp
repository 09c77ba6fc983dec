#pragma once
/// \file kt/io/module_io.hpp
/// A module's state to and from a safetensors file, with PyTorch's key names (`0.weight`,
/// `fc1.bias`): `torch.save(model.state_dict())` / `model.load_state_dict(...)` in the format
/// `safetensors.torch.load_file` reads.
///
///     kt::io::save(model, "model.safetensors");
///     kt::io::load(model, "model.safetensors");          // strict: every key, shape and dtype
///     auto r = kt::io::load(model, path, /*strict=*/false);  // r.missing, r.unexpected, r.mismatched

#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/safetensors.hpp"
#include "kt/nn/module.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kt::io {

/// What a load did not match (`load_state_dict`'s missing / unexpected keys, plus mismatches
/// of shape or dtype, each "name: file F16 (2, 3), module F32 (3, 2)").
struct LoadResult {
  std::vector<std::string> missing, unexpected, mismatched;
  bool ok() const { return missing.empty() && unexpected.empty() && mismatched.empty(); }
};

/// Writes model.state_dict() (parameters, then buffers) atomically, with metadata
/// {"format": "pt"} (what safetensors.torch writes) plus `metadata`.
template <class T, class D>
void save(const nn::Module<T, D>& model, const std::string& path, std::map<std::string, std::string> metadata = {}) {
  metadata.emplace("format", "pt");
  save_safetensors(path, model.state_dict(), metadata);
}

/// Loads the tensors named `prefix` + a state_dict key of `file` into `model`'s parameters and
/// buffers (the same Vars: optimizers holding them see the new values). Strict (default): any
/// missing, unexpected (under `prefix`) or mismatched key is a kt::Error listing all of them,
/// and nothing is changed. Not strict: the matching keys are loaded and the rest returned.
template <class T, class D>
LoadResult load(nn::Module<T, D>& model, const SafetensorsFile& file, bool strict = true, const std::string& prefix = "") {
  const auto state = model.state_dict();
  LoadResult result;
  std::set<std::string> known, mismatched;
  for (const auto& [key, tensor] : state) {
    const std::string name = prefix + key;
    known.insert(name);
    if (!file.contains(name)) {
      result.missing.push_back(name);
    } else if (!impl::safetensors_loads_as<T>(file.dtype(name)) || file.shape(name) != tensor.shape()) {
      mismatched.insert(name);
      result.mismatched.push_back(name + ": file " + file.dtype(name) + " " + file.shape(name).str() + ", module " +
                                  impl::safetensors_name<T>() + " " + tensor.shape().str());
    }
  }
  for (const auto& name : file.names())
    if (name.compare(0, prefix.size(), prefix) == 0 && !known.count(name)) result.unexpected.push_back(name);
  if (strict && !result.ok()) {
    const auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "; ") + impl::printable(x, 160);
      return s.empty() ? std::string("none") : s;
    };
    KT_THROW("kt::io::load: '", impl::printable(file.path(), 200), "' does not match ", model.name(),
             prefix.empty() ? std::string() : " under '" + impl::printable(prefix, 160) + "'",
             " (nothing was loaded): missing ", list(result.missing), "; unexpected ", list(result.unexpected),
             "; mismatched ", list(result.mismatched),
             " (kt::io::load(model, path, /*strict=*/false) loads the keys that match)");
  }
  for (const auto& [key, tensor] : state)
    if (file.contains(prefix + key) && !mismatched.count(prefix + key)) kt::copy(tensor, file.get<T, D>(prefix + key));
  return result;
}

/// Loads `path` into `model` (see above).
template <class T, class D>
LoadResult load(nn::Module<T, D>& model, const std::string& path, bool strict = true) {
  return load(model, load_safetensors(path), strict);
}

}  // namespace kt::io

namespace kt {
/// `kt::save(model, path)` / `kt::load(model, path)`: the names PyTorch users reach for.
using io::load;
using io::save;
}  // namespace kt
