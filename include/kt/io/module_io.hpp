#pragma once
/// \file kt/io/module_io.hpp
/// A module's state to and from a safetensors file, with PyTorch's key names (`0.weight`,
/// `fc1.bias`): `torch.save(model.state_dict())` / `model.load_state_dict(...)` in the format
/// `safetensors.torch.load_file` reads.
///
///     kt::io::save(model, "model.safetensors");
///     kt::io::load(model, "model.safetensors");          // strict: every key, shape and dtype
///     auto r = kt::io::load(model, path, /*strict=*/false);  // r.missing, r.unexpected, r.mismatched

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/safetensors.hpp"
#include "kt/nn/module.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
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

}  // namespace kt::io

namespace kt::impl {

/// A module load read and checked but not yet applied: the file's tensors, already on the
/// module's device, paired with the module's tensors they replace.
template <class T, class D>
struct StagedModuleLoad {
  io::LoadResult result;
  std::vector<std::pair<Tensor<T, D>, Tensor<T, D>>> copies;  // (module tensor, file tensor)
  /// Applies the load (copies of same-shaped tensors: nothing left to fail).
  void commit() const {
    for (const auto& [to, from] : copies) kt::copy(to, from);
  }
};

/// Reads and checks everything kt::io::load would change, changing nothing.
template <class T, class D>
StagedModuleLoad<T, D> stage_module_load(const nn::Module<T, D>& model, const io::SafetensorsFile& file, bool strict,
                                         const std::string& prefix) {
  const auto state = model.state_dict();
  StagedModuleLoad<T, D> staged;
  auto& result = staged.result;
  std::set<std::string> known, mismatched;
  for (const auto& [key, tensor] : state) {
    const std::string name = prefix + key;
    known.insert(name);
    if (!file.contains(name)) {
      result.missing.push_back(name);
    } else if (!safetensors_loads_as<T>(file.dtype(name)) || file.shape(name) != tensor.shape()) {
      mismatched.insert(name);
      result.mismatched.push_back(name + ": file " + file.dtype(name) + " " + file.shape(name).str() + ", module " +
                                  safetensors_name<T>() + " " + tensor.shape().str());
    }
  }
  for (const auto& name : file.names())
    if (name.compare(0, prefix.size(), prefix) == 0 && !known.count(name)) result.unexpected.push_back(name);
  if (strict && !result.ok()) {
    const auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "; ") + printable(x, 160);
      return s.empty() ? std::string("none") : s;
    };
    KT_THROW("kt::io::load: '", printable(file.path(), 200), "' does not match ", model.name(),
             prefix.empty() ? std::string() : " under '" + printable(prefix, 160) + "'",
             " (nothing was loaded): missing ", list(result.missing), "; unexpected ", list(result.unexpected),
             "; mismatched ", list(result.mismatched),
             " (kt::io::load(model, path, /*strict=*/false) loads the keys that match)");
  }
  for (const auto& [key, tensor] : state)
    if (file.contains(prefix + key) && !mismatched.count(prefix + key))
      staged.copies.emplace_back(tensor, file.get<T, D>(prefix + key));
  return staged;
}

}  // namespace kt::impl

namespace kt::io {

/// Loads the tensors named `prefix` + a state_dict key of `file` into `model`'s parameters and
/// buffers (the same Vars: optimizers holding them see the new values). Strict (default): any
/// missing, unexpected (under `prefix`) or mismatched key is a kt::Error listing all of them.
/// Not strict: the matching keys are loaded and the rest returned. Either way every tensor is
/// read and verified before the first one changes: on any kt::Error (a key, a damaged or cut
/// file) the model is exactly as it was.
template <class T, class D>
LoadResult load(nn::Module<T, D>& model, const SafetensorsFile& file, bool strict = true, const std::string& prefix = "") {
  auto staged = impl::stage_module_load(model, file, strict, prefix);
  staged.commit();
  return staged.result;
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

// kt_compiled (kt/core/impl/compiled.hpp): a floating module's file I/O.
#define KT_ETI_MODULE_IO_ONE(T, D, KW)                                                                      \
  KW void kt::io::save<T, D>(const kt::nn::Module<T, D>&, const std::string&,                              \
                             std::map<std::string, std::string>);                                          \
  KW kt::impl::StagedModuleLoad<T, D> kt::impl::stage_module_load<T, D>(                                   \
      const kt::nn::Module<T, D>&, const kt::io::SafetensorsFile&, bool, const std::string&);              \
  KW kt::io::LoadResult kt::io::load<T, D>(kt::nn::Module<T, D>&, const kt::io::SafetensorsFile&, bool,    \
                                           const std::string&);                                            \
  KW kt::io::LoadResult kt::io::load<T, D>(kt::nn::Module<T, D>&, const std::string&, bool);
#define KT_ETI_MODULE_IO(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_MODULE_IO_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_IO)
KT_ETI_MODULE_IO(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
