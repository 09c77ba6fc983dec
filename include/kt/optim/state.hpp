#pragma once
/// \file kt/optim/state.hpp
/// What an optimizer remembers between steps, per parameter (`optimizer.state[p]` in
/// PyTorch), and the whole of it with the hyperparameters (`optimizer.state_dict()`), for
/// inspection and checkpoints. Tensors are named as PyTorch names them: `momentum_buffer`
/// (SGD), `exp_avg`, `exp_avg_sq`, `max_exp_avg_sq` (Adam, AdamW).
///
///     kt::optim::Adam<float> opt(params, kt::optim::AdamOptions(1e-3));
///     ...
///     const auto& s = opt.state(0);                  // state of params()[0]
///     std::int64_t t = s.step;                       // steps taken with a gradient
///     auto m = s.at("exp_avg");                      // Tensor<float>, shape of the parameter
///     auto saved = opt.state_dict();                 // state by parameter index + hyperparameters
///     opt.load_state_dict(saved);                    // deep-copies the tensors back
///
/// State tensors hold `kt::compute_t<T>`: fp32 for kt::half and kt::bfloat16 parameters
/// (PyTorch keeps them in the parameter's dtype; kt keeps the extra precision), T otherwise.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kt::optim {

/// The state of one parameter: the step count and named tensors of the parameter's shape.
/// Empty (step 0, no tensors) until the first step that finds a gradient.
template <class T, class D = DefaultDevice>
struct ParamState {
  using tensor_type = Tensor<compute_t<T>, D>;

  /// Optimizer steps that updated this parameter (Adam's t; SGD keeps 0, as PyTorch's SGD
  /// stores no step).
  std::int64_t step = 0;
  /// Named state tensors, e.g. {"exp_avg", ...}; ordered by name.
  std::map<std::string, tensor_type> tensors;

  bool empty() const { return step == 0 && tensors.empty(); }
  bool has(const std::string& name) const { return tensors.count(name) != 0; }
  /// The tensor called `name`; kt::Error naming the ones present when absent.
  const tensor_type& at(const std::string& name) const {
    const auto it = tensors.find(name);
    if (it == tensors.end()) {
      std::string present;
      for (const auto& kv : tensors) present += (present.empty() ? "" : ", ") + kv.first;
      KT_THROW("kt::optim::ParamState::at: no state tensor \"", name, "\" (present: ",
               present.empty() ? std::string("none") : present, ")");
    }
    return it->second;
  }
};

/// An optimizer's whole state (`optimizer.state_dict()`): per-parameter state by index into
/// `params()`, and the hyperparameters of its parameter group by name ("lr", "momentum",
/// "beta1", ...; flags such as "nesterov" or "amsgrad" as 0 or 1).
template <class T, class D = DefaultDevice>
struct OptimizerStateDict {
  std::vector<ParamState<T, D>> state;
  std::map<std::string, double> hyperparameters;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
