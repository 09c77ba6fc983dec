#pragma once
// An optimizer in a checkpoint, laid out as PyTorch's `optimizer.state_dict()` flattened to
// names: the tensors `<name>.state.<i>.<key>` (i indexes params(); key is PyTorch's:
// "step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq", "momentum_buffer"), and the record
// {"kind": "optimizer", "type": "kt::optim::Adam", "param_groups": [{hyperparameters...,
// "params": [0, ..., n-1]}]}. A parameter without state has no tensors, as in PyTorch.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/checkpoint_record.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/io/safetensors.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>

namespace kt::impl {

template <class T, class D>
void add_optimizer_record(io::NamedTensors& tensors, std::map<std::string, std::string>& metadata,
                          const std::string& name, const optim::Optimizer<T, D>& opt) {
  const std::size_t n = opt.params().size();
  std::vector<Json::Member> group;
  for (const auto& [key, value] : opt.hyperparameters()) group.emplace_back(key, value);
  std::vector<Json> params(n);
  for (std::size_t i = 0; i < n; ++i) params[i] = i;
  group.emplace_back("params", Json::array(std::move(params)));
  metadata[name] = Json::object({{"kind", "optimizer"},
                                 {"type", opt.name()},
                                 {"param_groups", Json::array({Json::object(std::move(group))})}})
                       .dump();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = opt.state(i);
    const std::string at = name + ".state." + std::to_string(i) + ".";
    // PyTorch keeps `step` as a float32 scalar; beyond 2^24 float32 is no longer exact, so
    // kt writes float64 there (both load in PyTorch and in kt).
    if (s.step > 0 && s.step <= (std::int64_t(1) << 24))
      tensors.add(at + "step", kt::full<float, Host>(Shape{}, static_cast<float>(s.step)));
    else if (s.step > 0)
      tensors.add(at + "step", kt::full<double, Host>(Shape{}, static_cast<double>(s.step)));
    for (const auto& [key, t] : s.tensors) tensors.add(at + key, t);
  }
}

/// The step count stored in scalar `name` (F32, F64 or I64, a non-negative integer).
KT_INLINE_UNLESS_COMPILED std::int64_t read_step(const io::SafetensorsFile& file, const std::string& name,
                                                 const std::string& where);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)
KT_INLINE_UNLESS_COMPILED std::int64_t read_step(const io::SafetensorsFile& file, const std::string& name,
                                                 const std::string& where) {
  const std::string& dtype = file.dtype(name);
  KT_REQUIRE(file.shape(name).rank() == 0, where, "tensor '", printable(name), "' has shape ", file.shape(name).str(),
             ", not a scalar");
  double step = -1;
  if (dtype == "F32") step = static_cast<double>(file.get<float>(name).item());
  else if (dtype == "F64") step = file.get<double>(name).item();
  else if (dtype == "I64") step = static_cast<double>(file.get<std::int64_t>(name).item());
  else KT_THROW(where, "tensor '", printable(name), "' is ", dtype, "; a step count is F32, F64 or I64");
  KT_REQUIRE(step >= 0 && step < 9.0e18 && std::floor(step) == step, where, "tensor '", printable(name), "' holds ", step,
             ", not a step count");
  return static_cast<std::int64_t>(step);
}
#endif

/// The optimizer record `name`, read and checked completely (type, the parameter list, every
/// hyperparameter present and in range, every tensor's name, dtype, shape and checksum)
/// without changing `opt`; `opt.load_state_dict()` of the result cannot fail.
template <class T, class D>
typename optim::Optimizer<T, D>::state_dict_type read_optimizer_state(const io::SafetensorsFile& file,
                                                                      const std::string& name,
                                                                      optim::Optimizer<T, D>& opt) {
  const std::string where = record_where(file.path(), name);
  const auto record = read_record(file.metadata(), file.path(), name, "optimizer");
  const std::string type = record_string(record, "type", where);
  KT_REQUIRE(type == opt.name(), where, "holds the state of a ", printable(type), ", not of a ", opt.name());
  const Json& groups = record.get("param_groups");
  KT_REQUIRE(groups.is_array() && groups.size() == 1 && groups.elements()[0].is_object(), where,
             "\"param_groups\" is not a list of one group (kt optimizers have one)");
  const Json& group = groups.elements()[0];
  const std::size_t n = opt.params().size();
  const Json& params = group.get("params");
  KT_REQUIRE(params.is_array() && params.size() == n, where, "the group's \"params\" does not list the optimizer's ",
             n, " parameters");
  for (std::size_t i = 0; i < n; ++i) {
    const Json& p = params.elements()[i];
    KT_REQUIRE(p.is_unsigned() && p.as_unsigned() == i, where, "the group's \"params\" entry ", i, " is ",
               printable(p.dump(), 40), ", not ", i, " (the parameters are listed in order)");
  }
  typename optim::Optimizer<T, D>::state_dict_type sd;
  sd.state.resize(n);
  for (const auto& [key, value] : group.members()) {
    if (key == "params") continue;
    const double v = record_number(group, key.c_str(), where);
    KT_REQUIRE(std::isfinite(v), where, "field \"", printable(key), "\" is ", v, ", not a finite number");
    sd.hyperparameters[key] = v;
  }
  for (const auto& [key, value] : opt.hyperparameters()) {
    (void)value;
    KT_REQUIRE(sd.hyperparameters.count(key), where, "the group has no \"", key, "\" (a ", opt.name(),
               " record holds every hyperparameter)");
  }
  const std::string state_prefix = name + ".state.";
  for (const auto& tensor : file.names()) {
    if (tensor.compare(0, name.size() + 1, name + ".") != 0) continue;
    KT_REQUIRE(tensor.compare(0, state_prefix.size(), state_prefix) == 0, where, "unexpected tensor '",
               printable(tensor), "' (an optimizer's tensors are named ", printable(state_prefix), "<i>.<key>)");
    const std::string rest = tensor.substr(state_prefix.size());
    const std::size_t dot = rest.find('.');
    std::size_t i = 0;
    bool index_ok = dot != std::string::npos && dot > 0 && dot <= 9 && (rest[0] != '0' || dot == 1);  // no "01"
    for (std::size_t c = 0; index_ok && c < dot; ++c) {
      index_ok = rest[c] >= '0' && rest[c] <= '9';
      i = i * 10 + static_cast<std::size_t>(rest[c] - '0');
    }
    KT_REQUIRE(index_ok && dot + 1 < rest.size(), where, "tensor '", printable(tensor), "' is not named ",
               printable(state_prefix), "<i>.<key>");
    KT_REQUIRE(i < n, where, "tensor '", printable(tensor), "' is the state of parameter ", i, " but the optimizer has ",
               n, " parameters");
    const std::string key = rest.substr(dot + 1);
    if (key == "step") sd.state[i].step = read_step(file, tensor, where);
    else sd.state[i].tensors.emplace(key, file.get<compute_t<T>, D>(tensor));
  }
  opt.check_state_dict(sd);
  return sd;
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): both sides of a floating optimizer's record.
#define KT_ETI_OPTIMIZER_RECORD_ONE(T, D, KW)                                                                   \
  KW void kt::impl::add_optimizer_record<T, D>(kt::io::NamedTensors&, std::map<std::string, std::string>&,     \
                                               const std::string&, const kt::optim::Optimizer<T, D>&);          \
  KW kt::optim::Optimizer<T, D>::state_dict_type kt::impl::read_optimizer_state<T, D>(                          \
      const kt::io::SafetensorsFile&, const std::string&, kt::optim::Optimizer<T, D>&);
#define KT_ETI_OPTIMIZER_RECORD(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_OPTIMIZER_RECORD_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_IO)
KT_ETI_OPTIMIZER_RECORD(extern template)
#endif
