#pragma once
/// \file kt/nn/init.hpp
/// Parameter initialisation (`torch.nn.init`), drawing from kt's counter-based generator:
/// `uniform_`, `normal_`, `kaiming_uniform_`, `kaiming_normal_`, `xavier_uniform_`,
/// `xavier_normal_`, `constant_`, and the fan computation they share. Layers created without
/// an explicit seed draw from `kt::default_generator()`, seeded with 0 at start-up and
/// re-seeded with `kt::manual_seed(s)` (`torch.manual_seed`) — never from the clock.
///
///     kt::Generator gen(42);
///     auto w = kt::empty<float>({512, 784});
///     kt::nn::init::kaiming_uniform_(w, gen, std::sqrt(5.0));   // nn.Linear's default

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/factories.hpp"
#include "kt/tensor/random.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace kt::nn {

namespace init {

/// (fan_in, fan_out) of a weight of shape (out, in, *receptive field).
inline std::pair<double, double> fans(const Shape& shape) {
  KT_REQUIRE(shape.rank() >= 2, "kt::nn::init: fan in and fan out need at least 2 dimensions, got ",
             shape.str());
  double receptive = 1;
  for (int d = 2; d < shape.rank(); ++d) receptive *= static_cast<double>(shape[d]);
  return {static_cast<double>(shape[1]) * receptive, static_cast<double>(shape[0]) * receptive};
}

/// The recommended gain of a nonlinearity (`torch.nn.init.calculate_gain`): "linear",
/// "sigmoid", "tanh", "relu", "leaky_relu" (with slope `param`), "selu".
inline double calculate_gain(const std::string& nonlinearity, double param = 0.01) {
  if (nonlinearity == "linear" || nonlinearity == "sigmoid") return 1.0;
  if (nonlinearity == "tanh") return 5.0 / 3.0;
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") return std::sqrt(2.0 / (1.0 + param * param));
  if (nonlinearity == "selu") return 3.0 / 4.0;
  KT_THROW("kt::nn::init::calculate_gain: unsupported nonlinearity '", nonlinearity, "'");
}

/// Fills t with U(low, high).
template <class T, class D>
const Tensor<T, D>& uniform_(const Tensor<T, D>& t, Generator& gen, double low, double high) {
  KT_PROFILE_REGION("kt::nn::init::uniform_");
  kt::copy(t, rand<T>(D(), t.shape(), gen, low, high));
  return t;
}

/// Fills t with N(mean, std²).
template <class T, class D>
const Tensor<T, D>& normal_(const Tensor<T, D>& t, Generator& gen, double mean = 0, double stddev = 1) {
  KT_PROFILE_REGION("kt::nn::init::normal_");
  kt::copy(t, randn<T>(D(), t.shape(), gen, mean, stddev));
  return t;
}

/// Fills t with `value` (`nn.init.constant_`); returns t.
template <class T, class D>
const Tensor<T, D>& constant_(const Tensor<T, D>& t, double value) {
  return t.fill_(static_cast<T>(value));
}

/// U(−b, b) with b = gain · sqrt(3 / fan_in), gain for leaky_relu with slope a (He et al.
/// 2015). With a = √5 this is nn.Linear's default: b = 1 / sqrt(fan_in).
template <class T, class D>
const Tensor<T, D>& kaiming_uniform_(const Tensor<T, D>& t, Generator& gen, double a = 0,
                                     const std::string& nonlinearity = "leaky_relu") {
  const double gain = calculate_gain(nonlinearity, a);
  const double bound = gain * std::sqrt(3.0 / fans(t.shape()).first);
  return uniform_(t, gen, -bound, bound);
}

/// N(0, (gain / sqrt(fan_in))²).
template <class T, class D>
const Tensor<T, D>& kaiming_normal_(const Tensor<T, D>& t, Generator& gen, double a = 0,
                                    const std::string& nonlinearity = "leaky_relu") {
  return normal_(t, gen, 0, calculate_gain(nonlinearity, a) / std::sqrt(fans(t.shape()).first));
}

/// U(−b, b) with b = gain · sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio 2010).
template <class T, class D>
const Tensor<T, D>& xavier_uniform_(const Tensor<T, D>& t, Generator& gen, double gain = 1) {
  const auto [in, out] = fans(t.shape());
  const double bound = gain * std::sqrt(6.0 / (in + out));
  return uniform_(t, gen, -bound, bound);
}

/// N(0, (gain · sqrt(2 / (fan_in + fan_out)))²).
template <class T, class D>
const Tensor<T, D>& xavier_normal_(const Tensor<T, D>& t, Generator& gen, double gain = 1) {
  const auto [in, out] = fans(t.shape());
  return normal_(t, gen, 0, gain * std::sqrt(2.0 / (in + out)));
}

}  // namespace init
}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
