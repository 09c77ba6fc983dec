// kt::amp::autocast: matmul and linear on fp32 Vars run in the region's 16-bit dtype, the ops
// after them in their inputs' dtype or, on PyTorch's fp32 list, in fp32 — each op's dtype
// inside and outside the guard — and give exactly what the same ops written out with
// Var::to<>() give (values and gradients; one documented difference: linear hands an fp32
// weight its gradient unrounded, from a GEMM with an fp32 output); nesting, the disabled
// guard, the per-device scope and the cast cache (renewed after backward and an optimizer
// step); a model trains under it.

#include "kt_test.hpp"

#include <kt/amp/autocast.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

namespace {

using kt_test::bit_equal;

/// a and b agree to within one rounding to H of values of b's magnitude: what separates a
/// weight gradient kt keeps in fp32 from one written out through a 16-bit cast.
template <class H, class D>
bool within_16bit_rounding(const kt::Tensor<float, D>& a, const kt::Tensor<float, D>& b) {
  const auto x = a.to_vector(), y = b.to_vector();
  float scale = 1;
  for (float v : y) scale = std::max(scale, std::abs(v));
  const float ulp = std::is_same_v<H, kt::half> ? 0x1p-10f : 0x1p-7f;  // 16-bit epsilon
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(std::abs(x[i] - y[i]) <= ulp * scale)) return false;
  return a.shape() == b.shape();
}

/// An op of the autocast lists: its name, the dtype PyTorch gives it in a bfloat16 region, and
/// kt's (kt::amp::autocast_dtype).
struct OpDtype {
  std::string op, expected, got;
};

template <class D>
struct Operands {
  kt::Var<float, D> x{kt::randn<float, D>({6, 5}, 1)};
  kt::Var<float, D> w{kt::randn<float, D>({4, 5}, 2), true};
  kt::Var<float, D> b{kt::randn<float, D>({4}, 3), true};
};

/// linear and matmul under autocast<D, H> vs written out with to<H>(): same values, same
/// gradients but for linear's unrounded weight gradient.
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
  CHECK(within_16bit_rounding<H>(auto_ops.w.grad(), manual.w.grad()));
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
  auto& cache = kt::impl::autocast_cast_cache<D>();
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
  // The same graph written out: one cast of w and b shared by both uses, then fresh casts
  // (linear's weight gradient is unrounded under autocast).
  Operands<D> manual;
  using B = kt::bfloat16;
  const auto h = manual.w.template to<B>(), hb = manual.b.template to<B>();
  kt::sum(kt::linear(manual.x.template to<B>(), h, hb).template to<float>() +
          kt::linear(manual.x.template to<B>(), h, hb).template to<float>()).backward();
  kt::sum(kt::linear(manual.x.template to<B>(), manual.w.template to<B>(), manual.b.template to<B>()).template to<float>())
      .backward();
  CHECK(within_16bit_rounding<B>(o.w.grad(), manual.w.grad()));
  CHECK(bit_equal(o.b.grad(), manual.b.grad()));
}

TEST_CASE_TEMPLATE("nested regions of both 16-bit dtypes each use the parameter cast to their own", D, KT_DEVICES) {
  // One parameter, cached as bfloat16 by the outer region, then needed in half by an inner one:
  // each region's products use the cast to its own dtype.
  Operands<D> o;
  const auto written_out = [&](auto h) {
    using H = decltype(h);
    return kt::linear(o.x.template to<H>(), o.w.template to<H>(), o.b.template to<H>()).template to<float>().data();
  };
  kt::Tensor<float, D> outer_first, inner, outer_again;
  {
    kt::amp::autocast<D, kt::bfloat16> outer;
    outer_first = kt::linear(o.x, o.w, o.b).data();
    {
      kt::amp::autocast<D, kt::half> nested;
      inner = kt::linear(o.x, o.w, o.b).data();
    }
    outer_again = kt::linear(o.x, o.w, o.b).data();
  }
  CHECK(bit_equal(outer_first, written_out(kt::bfloat16{})));
  CHECK(bit_equal(inner, written_out(kt::half{})));
  CHECK(bit_equal(outer_again, written_out(kt::bfloat16{})));
}

// The weight's gradient is the fp32 accumulation of the 16-bit operands, not rounded to 16
// bits: with dy = 1, dw[o][i] = Σ_n bf16(x)[n][i], which meets a double reference to fp32's
// tolerance (rounded to bfloat16 it would be off by up to 2^-9 relative).
TEST_CASE_TEMPLATE("under autocast linear's fp32 weight gets its gradient unrounded", D, KT_DEVICES) {
  using B = kt::bfloat16;
  const kt::Var<float, D> x(kt::rand<float, D>({300, 7}, 1, 0.5f, 1.5f));
  const kt::Var<float, D> w(kt::randn<float, D>({5, 7}, 2), true), b(kt::randn<float, D>({5}, 3), true);
  {
    kt::amp::autocast<D, B> guard;  // (Cuda's default is half)
    kt::sum(kt::linear(x, w, b)).backward();
  }
  const auto xh = x.data().template to<B>().to_vector();
  const auto dw = w.grad().to_vector(), db = b.grad().to_vector();
  for (std::size_t o = 0; o < 5; ++o)
    for (std::size_t i = 0; i < 7; ++i) {
      double want = 0;
      for (std::size_t n = 0; n < 300; ++n) want += double(float(xh[n * 7 + i]));
      CHECK(double(dw[o * 7 + i]) == doctest::Approx(want).epsilon(1e-6));
    }
  // The bias' gradient is the 16-bit column sum of ones: 300, exact in bfloat16 (1.0010110 x 2^8).
  for (float v : db) CHECK(v == 300.0f);
}

// A region around a whole training loop: each optimizer step changes the weights, and the
// next forward pass in the region must cast the new weights, not reuse the old cast.
TEST_CASE_TEMPLATE("an autocast region around training steps casts the weights each step anew", D, KT_DEVICES) {
  Operands<D> o;
  kt::optim::SGD<float, D> opt({o.w, o.b}, kt::optim::SGDOptions(0.5));
  using B = kt::bfloat16;
  kt::amp::autocast<D, B> guard;
  for (int step = 0; step < 3; ++step) {
    const auto y = kt::linear(o.x, o.w, o.b);
    // What the current weights give, written out (the guard does not affect explicit casts).
    const auto want = kt::linear(o.x.data().template to<B>(), o.w.data().template to<B>(), o.b.data().template to<B>());
    CHECK(bit_equal(y.data(), want.template to<float>()));
    opt.zero_grad();
    kt::sum(y).backward();
    opt.step();
  }
}

TEST_CASE_TEMPLATE("autocast's op lists: each op's dtype inside and outside the guard", D, KT_DEVICES) {
  using kt::amp::autocast_dtype;
  Operands<D> o;
  const auto target = kt::randint<std::int64_t, D>(0, 4, {6}, 4);
  // Every public differentiable op (scripts/check_autocast_ops.py keeps this list complete)
  // on h, a result of a 16-bit op (what PyTorch would hold in bf16), and on f, a plain fp32
  // Var of h's shape, with the dtype PyTorch's autocast gives it inside a bfloat16 region.
  const kt::Var<float, D> f(kt::randn<float, D>({6, 4}, 5));
  const std::string B = "bfloat16", F = "float32";
  auto dtypes = [&](const kt::Var<float, D>& h, const kt::Var<float, D>& f) {
    const kt::Var<float, D> p = kt::relu(h) + 1.0f;  // positive, for log and sqrt
    return std::vector<OpDtype>{
        // PyTorch's lower-precision list: fp32 operands cast to 16 bits.
        {"matmul(x, w^T)", B, autocast_dtype(kt::matmul(o.x, kt::transpose(o.w, 0, 1)))},
        {"linear(x, w, b)", B, autocast_dtype(kt::linear(o.x, o.w, o.b))},
        // Ops that run in their inputs' dtype.
        {"relu(h)", B, autocast_dtype(kt::relu(h))},
        {"gelu(h)", B, autocast_dtype(kt::gelu(h))},
        {"tanh(h)", B, autocast_dtype(kt::tanh(h))},
        {"sigmoid(h)", B, autocast_dtype(kt::sigmoid(h))},
        {"activation(h, GELU)", B, autocast_dtype(kt::activation(h, kt::Activation::GELU))},
        {"abs(h)", B, autocast_dtype(kt::abs(h))},
        {"sqrt(p)", B, autocast_dtype(kt::sqrt(p))},
        {"sin(h)", B, autocast_dtype(kt::sin(h))},
        {"cos(h)", B, autocast_dtype(kt::cos(h))},
        {"clamp(h, -1, 1)", B, autocast_dtype(kt::clamp(h, -1.0f, 1.0f))},
        {"-h", B, autocast_dtype(-h)},
        {"h * 2", B, autocast_dtype(h * 2.0f)},
        {"h + h", B, autocast_dtype(h + h)},
        {"h - h", B, autocast_dtype(h - h)},
        {"h / 2", B, autocast_dtype(h / 2.0f)},
        {"maximum(h, h)", B, autocast_dtype(kt::maximum(h, h))},
        {"minimum(h, h)", B, autocast_dtype(kt::minimum(h, h))},
        {"reshape(h)", B, autocast_dtype(kt::reshape(h, {4, 6}))},
        {"flatten(h)", B, autocast_dtype(kt::flatten(h))},
        {"slice(h)", B, autocast_dtype(kt::slice(h, 1, 3))},
        {"select(h)", B, autocast_dtype(kt::select(h, 2))},
        {"permute(h)", B, autocast_dtype(kt::permute(h, {1, 0}))},
        {"transpose(h)", B, autocast_dtype(kt::transpose(h, 0, 1))},
        {"dropout(h)", B, autocast_dtype(kt::dropout(h, 0.5, true))},
        // Promotion: an fp32 operand makes the op fp32.
        {"h + f (widest)", F, autocast_dtype(h + f)},
        {"relu(f)", F, autocast_dtype(kt::relu(f))},
        // PyTorch's fp32 list (and max/min, which kt runs in fp32 too).
        {"exp(h)", F, autocast_dtype(kt::exp(h))},
        {"log(p)", F, autocast_dtype(kt::log(p))},
        {"pow(h, 2)", F, autocast_dtype(kt::pow(h, 2.0f))},
        {"sum(h)", F, autocast_dtype(kt::sum(h))},
        {"sum(h, 0)", F, autocast_dtype(kt::sum(h, 0))},
        {"mean(h)", F, autocast_dtype(kt::mean(h))},
        {"mean(h, 1)", F, autocast_dtype(kt::mean(h, 1))},
        {"max(h)", F, autocast_dtype(kt::max(h))},
        {"max(h, 1)", F, autocast_dtype(kt::max(h, 1))},
        {"min(h)", F, autocast_dtype(kt::min(h))},
        {"min(h, 0)", F, autocast_dtype(kt::min(h, 0))},
        {"softmax(h)", F, autocast_dtype(kt::softmax(h, 1))},
        {"log_softmax(h)", F, autocast_dtype(kt::log_softmax(h, 1))},
        {"layer_norm(h)", F, autocast_dtype(kt::layer_norm(h, {4}))},
        {"cross_entropy(h)", F, autocast_dtype(kt::cross_entropy(h, target))},
        {"nll_loss(h)", F, autocast_dtype(kt::nll_loss(h, target))},
        {"mse_loss(h, h)", F, autocast_dtype(kt::mse_loss(h, h))},
        {"mse_loss(h, h, none)", F,
         autocast_dtype(kt::mse_loss(h, h, kt::MSELossOptions().reduction(kt::Reduction::None)))},
    };
  };
  kt::Var<float, D> h;
  std::vector<OpDtype> got;
  {
    kt::amp::autocast<D, kt::bfloat16> guard;
    h = kt::linear(o.x, o.w, o.b);
    got = dtypes(h, f);
    {
      kt::amp::autocast<D> off(false);  // a disabled inner guard: everything fp32
      for (const auto& row : dtypes(h, f)) CHECK_MESSAGE(row.got == "float32", row.op);
    }
    // Nested inside with half: ops on h (a bfloat16 result) run in fp32, new products in half.
    kt::amp::autocast<D, kt::half> inner;
    CHECK(autocast_dtype(kt::relu(h)) == "float32");
    CHECK(autocast_dtype(kt::linear(o.x, o.w, o.b)) == "float16");
  }
  for (const auto& row : got) CHECK_MESSAGE(row.got == row.expected, row.op);
  // Outside the guard: fp32, also on h, the region's bfloat16 result.
  for (const auto& row : dtypes(h, f)) CHECK_MESSAGE(row.got == "float32", row.op);
}

TEST_CASE_TEMPLATE("an op on PyTorch's fp32 list computes from fp32 values, also when it is built of other ops",
                   D, KT_DEVICES) {
  // mse_loss is (input - target)² reduced: under autocast its difference and square must not
  // run in 16 bits on the operands' twins, as they would if it were only its parts.
  Operands<D> o;
  kt::Var<float, D> h, g, loss, none;
  {
    kt::amp::autocast<D, kt::bfloat16> guard;
    h = kt::linear(o.x, o.w, o.b);
    g = kt::tanh(h);  // a second 16-bit result
    loss = kt::mse_loss(h, g);
    none = kt::mse_loss(h, g, kt::MSELossOptions().reduction(kt::Reduction::None));
  }
  // The reference: the same fp32 values (h and g are the exact widenings), no region.
  const kt::Var<float, D> hf(h.data()), gf(g.data());
  CHECK(bit_equal(loss.data(), kt::mse_loss(hf, gf).data()));
  CHECK(bit_equal(none.data(), kt::mse_loss(hf, gf, kt::MSELossOptions().reduction(kt::Reduction::None)).data()));
  // Written as its parts under autocast, the square would be a 16-bit result.
  {
    kt::amp::autocast<D, kt::bfloat16> guard;
    CHECK(kt::amp::autocast_dtype((h - g) * (h - g)) == "bfloat16");
  }
  // Gradients reach the fp32 weights through both operands.
  loss.backward();
  CHECK(o.w.grad().defined());
}

TEST_CASE_TEMPLATE("ops on autocast results run in 16 bits exactly as written out with to<>()",
                   D, KT_DEVICES) {
  Operands<D> a, m;
  using B = kt::bfloat16;
  kt::Var<float, D> y;
  {
    kt::amp::autocast<D, B> guard;
    const auto h = kt::linear(a.x, a.w, a.b);
    y = kt::sigmoid(kt::relu(h) * 3.0f - h) + kt::matmul(h, kt::matmul(kt::transpose(h, 0, 1), kt::gelu(h)));
  }
  const auto hm = kt::linear(m.x.template to<B>(), m.w.template to<B>(), m.b.template to<B>());
  const auto ym =
      (kt::sigmoid(kt::relu(hm) * 3.0f - hm) + kt::matmul(hm, kt::matmul(kt::transpose(hm, 0, 1), kt::gelu(hm))))
          .template to<float>();
  CHECK(bit_equal(y.data(), ym.data()));
  kt::sum(y).backward();
  kt::sum(ym).backward();
  CHECK(within_16bit_rounding<B>(a.w.grad(), m.w.grad()));
  CHECK(bit_equal(a.b.grad(), m.b.grad()));
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
      kt::amp::autocast<D, kt::bfloat16> guard;
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
