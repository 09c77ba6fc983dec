#pragma once
// kt::linear on fp32 Vars under kt::amp::autocast: the product, epilogue and saved activations
// in 16 bits (as PyTorch), with one difference in the backward: the fp32 master weight's
// gradient comes straight from a GEMM with 16-bit operands and an fp32 output (fp32
// accumulation, not rounded to 16 bits), instead of a 16-bit weight gradient widened by the
// cast's backward. That is one rounding fewer, no 16-bit weight gradient and no widening pass,
// and the widened host GEMM accumulates into the gradient itself (no fp32 scratch for C). The
// input's gradient stays 16-bit (it flows on through 16-bit ops) and the bias' is the 16-bit
// column sum widened, as written out with Var::to<>().

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/autocast_cast.hpp"
#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/linear.hpp"
#include "kt/tensor/matmul.hpp"

#include <memory>
#include <vector>

namespace kt::impl {

/// The node of one autocast linear: a 16-bit output, a 16-bit input x, fp32 w and b.
template <class H, class D>
struct AutocastLinearNode final : NodeBase {
  std::shared_ptr<VarImpl<H, D>> x_state;
  std::shared_ptr<VarImpl<float, D>> w_state, b_state;  // b_state null without bias
  Tensor<H, D> x, w;                                    // the 16-bit operands, saved
  LinearForward<H, D> fwd;
  Activation act = Activation::Identity;
  std::vector<std::shared_ptr<bool>> casts_read;  // set when run: the casts are stale

  std::vector<VarImplBase*> input_states() const override {
    std::vector<VarImplBase*> out{x_state.get(), w_state.get()};
    if (b_state) out.push_back(b_state.get());
    return out;
  }

  void propagate(VarImplBase& output) override {
    auto& out = static_cast<VarImpl<H, D>&>(output);
    const Tensor<H, D> dy = std::move(out.pending);
    out.pending = Tensor<H, D>();
    const D exec;
    Tensor<H, D> dz(dy.shape(), exec);
    Tensor<H, D> db = b_state ? Tensor<H, D>(Shape{dy.size(1)}, exec) : Tensor<H, D>();
    linear_grad_epilogue(exec, dy, fwd.output, fwd.pre_activation, act, dz, db);
    if (w_state->requires_grad) {
      Tensor<float, D> dw(w_state->shape, exec);
      kt::addmm_(exec, dw, dz, x, MatmulOptions().transpose_a(true));  // (out, N) · (N, in), beta 0
      deliver(*w_state, std::move(dw), name, 1);
    }
    if (x_state->requires_grad) deliver(*x_state, matmul(exec, dz, w, MatmulOptions()), name, 0);
    if (b_state && b_state->requires_grad) deliver(*b_state, db.template to<float>(exec), name, 2);
  }

  void release() override {
    for (const auto& flag : casts_read) *flag = true;
    x = w = Tensor<H, D>();
    fwd = LinearForward<H, D>();
    released_ = true;
  }
};

/// act(x · wᵀ + b) in 16 bits, returned as its fp32 widening carrying the 16-bit result as its
/// twin (kt/autograd/impl/autocast_twin.hpp). b may be undefined.
template <class H, class D>
Var<float, D> autocast_linear(const Var<float, D>& x, const Var<float, D>& w, const Var<float, D>& b,
                              Activation act) {
  const Var<H, D> xh = autocast_cast<H>(x);
  const bool has_bias = b.defined();
  const bool recording =
      GradMode::is_enabled() && (xh.requires_grad() || w.requires_grad() || (has_bias && b.requires_grad()));
  if (!recording) {
    const Tensor<H, D> bh = has_bias ? autocast_cast_value<H>(b, nullptr) : Tensor<H, D>();
    return widen_with_twin(Var<H, D>(kt::linear(xh.data(), autocast_cast_value<H>(w, nullptr), bh, act)));
  }
  auto node = std::make_shared<AutocastLinearNode<H, D>>();
  node->name = "kt::linear (autocast)";
  node->act = act;
  node->x = xh.data();
  node->w = autocast_cast_value<H>(w, &node->casts_read);
  const Tensor<H, D> bh = has_bias ? autocast_cast_value<H>(b, &node->casts_read) : Tensor<H, D>();
  node->fwd = linear_forward(node->x, node->w, bh, act);
  node->output_shape = node->fwd.output.shape();
  node->x_state = VarAccess::state(xh);
  node->w_state = VarAccess::state(w);
  if (has_bias) node->b_state = VarAccess::state(b);
  auto state = std::make_shared<VarImpl<H, D>>();
  state->shape = node->output_shape;
  state->requires_grad = true;
  const Tensor<H, D> value = node->fwd.output;
  state->grad_fn = std::move(node);
  return widen_with_twin(VarAccess::make(value, std::move(state)));
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the 16-bit Linear of an autocast region.
#define KT_ETI_AUTOCAST_LINEAR_ONE(D, KW)                                                               \
  KW kt::Var<float, D> kt::impl::autocast_linear<kt::half, D>(                                          \
      const kt::Var<float, D>&, const kt::Var<float, D>&, const kt::Var<float, D>&, kt::Activation);    \
  KW kt::Var<float, D> kt::impl::autocast_linear<kt::bfloat16, D>(                                      \
      const kt::Var<float, D>&, const kt::Var<float, D>&, const kt::Var<float, D>&, kt::Activation);
#define KT_ETI_AUTOCAST_LINEAR(KW) KT_ETI_EACH_DEVICE(KT_ETI_AUTOCAST_LINEAR_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_LINEAR)
KT_ETI_AUTOCAST_LINEAR(extern template)
#endif
