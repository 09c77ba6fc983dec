#pragma once
// The node kt::linear records, in fp32 and under kt::amp::autocast alike: one op whose
// parameters may have another dtype than its product. Under autocast the product, epilogue and
// saved activations are 16-bit (as PyTorch), with one difference in the backward: the fp32
// master weight's gradient comes straight from a GEMM with 16-bit operands and an fp32 output
// (kt::linear_backward<T, D, float>), instead of a 16-bit weight gradient widened by a cast's
// backward: one rounding fewer, no 16-bit weight gradient and no widening pass. The input's
// gradient stays 16-bit (it flows on through 16-bit ops); the bias' is the 16-bit column sum
// widened, as written out with Var::to<>().

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/autocast_cast.hpp"
#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/mixed_node.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/linear.hpp"

#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace kt::impl {

/// act(x · wᵀ + b) on wv and bv, the values of the parameters w and b (dtype P) in x's dtype T;
/// b may be undefined. The parameters' gradients arrive in P. `casts_read` holds the flags of
/// the cached casts wv and bv are (kt/autograd/impl/autocast_cast.hpp): the backward sets them,
/// since the optimizer may then update the parameters and the next forward must cast again.
template <class T, class P, class D>
Var<T, D> record_linear(const Var<T, D>& x, const Var<P, D>& w, const Var<P, D>& b, const Tensor<T, D>& wv,
                        const Tensor<T, D>& bv, Activation act, std::vector<std::shared_ptr<bool>> casts_read) {
  if (!should_record_any(x, w, b)) return Var<T, D>(kt::linear(x.data(), wv, bv, act));
  LinearForward<T, D> fwd = linear_forward(x.data(), wv, bv, act);
  Tensor<T, D> out = fwd.output;
  const auto backward = [xv = x.data(), wv, fwd = std::move(fwd), act, has_bias = b.defined(),
                         casts_read = std::move(casts_read)](const Tensor<T, D>& g, const Needs& needs) {
    for (const auto& flag : casts_read) *flag = true;
    LinearGrads<T, D, P> grads = linear_backward<T, D, P>(g, xv, wv, fwd, act, has_bias, needs[0], needs[1]);
    return std::make_tuple(std::move(grads.dx), std::move(grads.dw), std::move(grads.db));
  };
  return record_mixed("kt::linear", std::move(out), std::move(backward), x, w, b);
}

/// kt::linear on fp32 Vars inside an autocast region of 16-bit dtype H: the result widened to
/// fp32, carrying the 16-bit one as its twin (kt/autograd/impl/autocast_twin.hpp).
template <class H, class D>
Var<float, D> autocast_linear(const Var<float, D>& x, const Var<float, D>& w, const Var<float, D>& b,
                              Activation act) {
  std::vector<std::shared_ptr<bool>> casts_read;
  const Tensor<H, D> wh = autocast_cast_value<H>(w, &casts_read);
  const Tensor<H, D> bh = b.defined() ? autocast_cast_value<H>(b, &casts_read) : Tensor<H, D>();
  return widen_with_twin(record_linear(autocast_cast<H>(x), w, b, wh, bh, act, std::move(casts_read)));
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
