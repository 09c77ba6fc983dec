#pragma once
// The MLP of tests/io/pytorch/make_fixtures.py in kt: nn.Sequential(Linear(4, 16), ReLU(),
// Linear(16, 8), Tanh(), Linear(8, 3)), so state_dict keys 0.*, 2.*, 4.* match PyTorch's.

#include <kt/kt.hpp>

#include <cstdint>

namespace kt_test {

template <class T, class D>
kt::nn::Sequential<T, D> pytorch_mlp(std::uint64_t seed = 0) {
  kt::nn::Sequential<T, D> m;
  m.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(4, 16).seed(seed + 1)));
  m.push_back(kt::nn::ReLU<T, D>());
  m.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(16, 8).seed(seed + 2)));
  m.push_back(kt::nn::Tanh<T, D>());
  m.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(8, 3).seed(seed + 3)));
  return m;
}

}  // namespace kt_test
