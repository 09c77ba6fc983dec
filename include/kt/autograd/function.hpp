#pragma once
/// \file kt/autograd/function.hpp
/// User-defined differentiable ops (`torch.autograd.Function`): a forward functor computes
/// the output from the input tensors and saves what the backward needs in a Context; a
/// backward functor maps the output's gradient to one gradient per input. Both work on plain
/// kt::Tensors — write them with kt ops or your own Kokkos kernels.
///
///     auto cube = kt::make_function<float, D>(
///         "cube",
///         [](kt::Context<float, D>& ctx, const std::vector<kt::Tensor<float, D>>& in) {
///           ctx.save_for_backward({in[0]});
///           return in[0] * in[0] * in[0];
///         },
///         [](const kt::Context<float, D>& ctx, const kt::Tensor<float, D>& g) {
///           const auto& x = ctx.saved()[0];
///           return std::vector<kt::Tensor<float, D>>{g * x * x * 3.0f};
///         });
///     kt::Var<float, D> y = cube({x});

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kt {

/// What a custom op's forward hands to its backward.
template <class T, class D>
class Context {
public:
  /// Keeps tensors for the backward pass (freed with the graph).
  void save_for_backward(std::vector<Tensor<T, D>> tensors) { saved_ = std::move(tensors); }
  const std::vector<Tensor<T, D>>& saved() const { return saved_; }
  /// Non-tensor values (exponents, flags) for the backward pass.
  std::vector<double> values;
  /// Whether input i needs a gradient (set before forward runs, so both passes can ask; a
  /// backward may return an undefined tensor for inputs that do not).
  bool needs_input_grad(std::size_t i) const { return i < needs_.size() && needs_[i]; }

private:
  template <class, class, class, class>
  friend class Function;
  std::vector<Tensor<T, D>> saved_;
  std::vector<bool> needs_;
};

/// A differentiable op made of a forward and a backward functor; call it with its inputs.
template <class T, class D, class Forward, class Backward>
class Function {
public:
  Function(std::string name, Forward forward, Backward backward)
      : name_(std::make_shared<std::string>(std::move(name))), forward_(std::move(forward)),
        backward_(std::move(backward)) {}

  Var<T, D> operator()(const std::vector<Var<T, D>>& inputs) const {
    KT_PROFILE_REGION(name_->c_str());
    std::vector<Tensor<T, D>> values;
    for (const auto& v : inputs) {
      KT_REQUIRE(v.defined(), *name_, ": an input Var is undefined");
      values.push_back(v.data());
    }
    auto ctx = std::make_shared<Context<T, D>>();
    for (const auto& v : inputs) ctx->needs_.push_back(v.requires_grad());
    Tensor<T, D> out = forward_(*ctx, values);
    KT_REQUIRE(out.defined(), *name_, ": the forward functor returned an undefined tensor");
    return impl::record(name_->c_str(), std::move(out), inputs.data(), inputs.data() + inputs.size(),
                        [ctx, backward = backward_, name = name_](const Tensor<T, D>& g, const impl::Needs&) {
                          std::vector<Tensor<T, D>> grads = backward(*ctx, g);
                          ctx->saved_.clear();
                          return grads;
                        });
  }

private:
  std::shared_ptr<std::string> name_;  // outlives the graphs that name it
  Forward forward_;
  Backward backward_;
};

/// Builds a Function: forward(Context&, const std::vector<Tensor>&) -> Tensor,
/// backward(const Context&, const Tensor& grad_output) -> std::vector<Tensor>.
template <class T, class D, class Forward, class Backward>
Function<T, D, Forward, Backward> make_function(std::string name, Forward forward, Backward backward) {
  return Function<T, D, Forward, Backward>(std::move(name), std::move(forward), std::move(backward));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
