#pragma once
/// \file kt/nn/softmax.hpp
/// `kt::nn::Softmax` and `kt::nn::LogSoftmax` along a dimension (`torch.nn.Softmax(dim)`).
///
///     kt::nn::LogSoftmax<float> log_probs(/*dim=*/1);

#include "kt/autograd/softmax.hpp"
#include "kt/nn/module.hpp"

#include <string>

namespace kt::nn {

struct SoftmaxOptions {
  int dim = -1;
};

#define KT_NN_SOFTMAX(Name, fn)                                                          \
  template <class T, class D = DefaultDevice>                                            \
  class Name : public impl::Convertible<Name, T, D> {                                    \
  public:                                                                                \
    explicit Name(int dim = -1) : dim_(dim) {}                                           \
    explicit Name(const SoftmaxOptions& options) : dim_(options.dim) {}                  \
    Var<T, D> forward(const Var<T, D>& x) override {                                     \
      KT_PROFILE_REGION("kt::nn::" #Name "::forward");                                   \
      return kt::fn(x, dim_);                                                            \
    }                                                                                    \
    std::string name() const override { return #Name; }                                  \
    std::string extra_repr() const override { return "dim=" + std::to_string(dim_); }    \
    SoftmaxOptions options() const { return {dim_}; }                                    \
                                                                                         \
  private:                                                                               \
    int dim_;                                                                            \
  };

KT_NN_SOFTMAX(Softmax, softmax)
KT_NN_SOFTMAX(LogSoftmax, log_softmax)
#undef KT_NN_SOFTMAX

}  // namespace kt::nn
