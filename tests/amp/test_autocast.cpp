// kt::amp::autocast: matmul and linear on fp32 Vars run in the region's 16-bit dtype and give
// exactly what the same ops written out with Var::to<>() give (values and fp32 gradients);
// nesting, the disabled guard, the per-device scope and the cast cache; a model trains under it.

#include "kt_test.hpp"

#include <kt/amp/autocast.hpp>

#include <cmath>
#include <vector>

namespace {

template <class T, class D>
bool bit_equal(const kt::Tensor<T, D>& a, const kt::Tensor<T, D>& b) {
  const auto x = a.to_vector(), y = b.to_vector();
  return a.shape() == b.shape() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

template <class D>
struct Operands {
  kt::Var<float, D> x{kt::randn<float, D>({6, 5}, 1)};
  kt::Var<float, D> w{kt::randn<float, D>({4, 5}, 2), true};
  kt::Var<float, D> b{kt::randn<float, D>({4}, 3), true};
};

/// linear and matmul under autocast<D, H> vs written out with to<H>(): same values, same
/// fp32 gradients.
template <class D, class H>
void check_same_as_written_out() {
  Operands<D> auto_ops, manual;
  kt::Var<float, D> y_auto, m_auto;
  {
    kt::amp::autocast<D, H> guard;
    CHECK(kt::amp::autocast<D, H>::is_enabled());
    y_auto = kt::linear(auto_ops.x, auto_ops.w, auto_ops.b, kt::Activation::ReLU);
    m_auto = kt::matmul(auto_ops.x, kt::transpose(auto_ops.w, 0, 1));
  }
  CHECK_FALSE(kt::amp::autocast<D, H>::is_enabled());
  const auto y_manual = kt::linear(manual.x.template to<H>(), manual.w.template to<H>(), manual.b.template to<H>(),
                                   kt::Activation::ReLU).template to<float>();
  const auto m_manual = kt::matmul(manual.x.template to<H>(), kt::transpose(manual.w.template to<H>(), 0, 1)).template to<float>();
  CHECK(bit_equal(y_auto.data(), y_manual.data()));
  CHECK(bit_equal(m_auto.data(), m_manual.data()));
  // 16-bit results differ from fp32 ones (the check can fail).
  CHECK_FALSE(bit_equal(y_auto.data(), kt::linear(manual.x, manual.w, manual.b, kt::Activation::ReLU).data()));
  (kt::sum(y_auto) + kt::sum(m_auto)).backward();
  (kt::sum(y_manual) + kt::sum(m_manual)).backward();
  CHECK(bit_equal(auto_ops.w.grad(), manual.w.grad()));
  CHECK(bit_equal(auto_ops.b.grad(), manual.b.grad()));
}

}  // namespace

TEST_CASE_TEMPLATE("autocast runs linear and matmul in bfloat16 exactly as written out with to<>()", D, KT_DEVICES) {
  check_same_as_written_out<D, kt::bfloat16>();
}

TEST_CASE_TEMPLATE("autocast<D, kt::half> runs them in half", D, KT_DEVICES) {
  check_same_as_written_out<D, kt::half>();
}

TEST_CASE_TEMPLATE("autocast nests, can be disabled, and caches each parameter's cast once per region", D, KT_DEVICES) {
  Operands<D> o;
  const auto fp32 = kt::linear(o.x, o.w, o.b).data();
  auto& cache = kt::impl::autocast_state<D>().cache;
  {
    kt::amp::autocast<D> outer;
    CHECK_FALSE(bit_equal(kt::linear(o.x, o.w, o.b).data(), fp32));
    {
      kt::amp::autocast<D> off(false);
      CHECK_FALSE(kt::amp::autocast<D>::is_enabled());
      CHECK(bit_equal(kt::linear(o.x, o.w, o.b).data(), fp32));
    }
    CHECK(kt::amp::autocast<D>::is_enabled());
    // w and b are parameters: cast once (2 entries), however often they are used; x is not.
    auto twice = kt::linear(o.x, o.w, o.b) + kt::linear(o.x, o.w, o.b);
    CHECK(cache.size() == 2);
    kt::sum(twice).backward();  // both uses reach w's fp32 gradient through the one cast
    auto again = kt::linear(o.x, o.w, o.b);  // after backward freed it, the cast is renewed
    kt::sum(again).backward();
  }
  CHECK(cache.empty());  // dropped with the outermost region
  // The same graph written out: one cast of w and b shared by both uses, then fresh casts.
  Operands<D> manual;
  using B = kt::bfloat16;
  const auto h = manual.w.template to<B>(), hb = manual.b.template to<B>();
  kt::sum(kt::linear(manual.x.template to<B>(), h, hb).template to<float>() +
          kt::linear(manual.x.template to<B>(), h, hb).template to<float>()).backward();
  kt::sum(kt::linear(manual.x.template to<B>(), manual.w.template to<B>(), manual.b.template to<B>()).template to<float>())
      .backward();
  CHECK(bit_equal(o.w.grad(), manual.w.grad()));
}

#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("autocast is per device type") {
  Operands<Kokkos::OpenMP> o;
  const auto fp32 = kt::linear(o.x, o.w, o.b).data();
  kt::amp::autocast<Kokkos::Serial> serial_only;
  CHECK(bit_equal(kt::linear(o.x, o.w, o.b).data(), fp32));
}
#endif

TEST_CASE_TEMPLATE("an MLP trains under bf16 autocast and stays close to fp32", D, KT_DEVICES) {
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(8, 32).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(32, 1).seed(2)));
  const auto x = kt::randn<float, D>({64, 8}, 3);
  const auto y = kt::sum(x, 1, /*keepdim=*/true) * 0.5f;
  const auto fp32 = model(x).data().to_vector();
  kt::optim::Adam<float, D> opt(model.parameters(), 1e-2);
  float first = 0, last = 0;
  for (int step = 0; step < 100; ++step) {
    kt::Var<float, D> loss;
    {
      kt::amp::autocast<D> guard;
      if (step == 0) {
        const auto bf16 = model(x).data().to_vector();
        for (std::size_t i = 0; i < fp32.size(); ++i) CHECK(std::abs(bf16[i] - fp32[i]) <= 2e-2f * (1 + std::abs(fp32[i])));
      }
      loss = kt::mse_loss(model(x), y);
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    (step == 0 ? first : last) = loss.item();
  }
  CHECK(last < 0.05f * first);
}
