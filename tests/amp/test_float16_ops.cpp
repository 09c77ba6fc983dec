// Every differentiable op in half and bfloat16 against the same op in double on the same
// inputs (values exactly representable in the 16-bit type): the outputs and every input's
// gradient agree within a few units of the 16-bit type's rounding. kt's 16-bit ops compute in
// fp32 and round once, so a result is within about one unit roundoff u (2^-11 for half, 2^-8
// for bfloat16) of the exact one; the checks allow `ulps` units, measured against the largest
// magnitude of the tensor (max-norm), which also covers outputs that cancel to near zero.
//
// The loss is sum(out * w) with w exact in the 16-bit type: its gradient into the op is w
// itself, exactly, so what is compared is the op's own backward. The "long" cases reduce over
// thousands of elements: accumulating them in 16 bits would be off by far more than the
// tolerance (bfloat16 stops counting at 256 + 1), so they check that reductions, softmax,
// layer_norm and losses accumulate in fp32.

#include "kt_test.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

/// The unit roundoff of H: half of one unit in the last place at 1.
template <class H>
constexpr double unit_roundoff() {
  return std::is_same_v<H, kt::half> ? 0x1p-11 : 0x1p-8;
}

/// max |got - want| <= ulps * u * max |want| (and the shapes agree); says where it is not.
template <class H>
bool close_in_max_norm(const std::string& what, const std::vector<double>& got, const std::vector<double>& want,
                       double ulps) {
  if (got.size() != want.size()) {
    MESSAGE(what, ": ", got.size(), " elements, the reference has ", want.size());
    return false;
  }
  double scale = 0, worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < want.size(); ++i) scale = std::max(scale, std::abs(want[i]));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = std::abs(got[i] - want[i]);
    if (!(d <= worst)) worst = d, at = i;  // NaN counts as worst
  }
  const double allowed = ulps * unit_roundoff<H>() * std::max(scale, 1e-30);
  if (!(worst <= allowed)) {
    MESSAGE(what, ": element ", at, " is ", got[at], ", the fp64 reference ", want[at], " (error ", worst / scale,
            " of the largest magnitude ", scale, "; allowed ", ulps, " units of ", unit_roundoff<H>(), ")");
    return false;
  }
  return true;
}

/// Runs f on Vars of H and of double built from the same H-exact inputs, backward through
/// sum(out * w), and compares the outputs and the gradients.
template <class H, class D, class F>
bool matches_fp64(const std::string& name, F f, const std::vector<kt::Tensor<double, D>>& inputs, double ulps = 4) {
  std::vector<kt::Var<H, D>> low;
  std::vector<kt::Var<double, D>> ref;
  for (const auto& t : inputs) {
    const auto rounded = t.template to<H>();
    low.emplace_back(rounded.clone(), true);
    ref.emplace_back(rounded.template to<double>(), true);
  }
  const kt::Var<H, D> out = f(low);
  const kt::Var<double, D> want = f(ref);
  const auto w = kt::rand<double, D>(want.shape(), 777, 0.5, 1.5).template to<H>();
  kt::sum(out * kt::Var<H, D>(w)).backward();
  kt::sum(want * kt::Var<double, D>(w.template to<double>())).backward();
  bool ok = close_in_max_norm<H>(name + " (output)", kt_test::as_double(out.data().to_vector()), want.data().to_vector(), ulps);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!low[i].grad().defined() || !ref[i].grad().defined()) {
      MESSAGE(name, ": input ", i, " has no gradient");
      ok = false;
      continue;
    }
    ok = close_in_max_norm<H>(name + " (gradient of input " + std::to_string(i) + ")", kt_test::as_double(low[i].grad().to_vector()),
                              ref[i].grad().to_vector(), ulps) && ok;
  }
  return ok;
}

template <class D>
kt::Tensor<double, D> uniform(const kt::Shape& shape, std::uint64_t seed, double low = -1, double high = 1) {
  return kt::rand<double, D>(shape, seed, low, high);
}

}  // namespace

#define KT_FLOAT16_CASES KT_CASES(kt::half), KT_CASES(kt::bfloat16)

TEST_CASE_TEMPLATE("16-bit elementwise arithmetic with broadcasting matches fp64", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto a = uniform<D>({3, 4}, 1), b = uniform<D>({4}, 2), c = uniform<D>({3, 1}, 3, 0.5, 2);
  CHECK(matches_fp64<H, D>("add", [](const auto& v) { return v[0] + v[1]; }, {a, b}));
  CHECK(matches_fp64<H, D>("sub", [](const auto& v) { return v[0] - v[1]; }, {a, c}));
  CHECK(matches_fp64<H, D>("mul", [](const auto& v) { return v[0] * v[1]; }, {a, b}));
  CHECK(matches_fp64<H, D>("div", [](const auto& v) { return v[0] / v[1]; }, {a, c}));
  CHECK(matches_fp64<H, D>("scalars", [](const auto& v) { return (v[0] + 1.5) * 2.0 - 3.0 / v[1]; }, {a, c}));
  CHECK(matches_fp64<H, D>("maximum", [](const auto& v) { return kt::maximum(v[0], v[1]); }, {a, b}));
  CHECK(matches_fp64<H, D>("minimum", [](const auto& v) { return kt::minimum(v[0], v[1]); }, {a, c}));
  CHECK(matches_fp64<H, D>("pow", [](const auto& v) { return kt::pow(v[0], 3.0) + kt::pow(v[1], 0.5); }, {a, c}));
  CHECK(matches_fp64<H, D>("pow(tensor, tensor)", [](const auto& v) { return kt::pow(v[0], v[1]); },
                           {uniform<D>({3, 4}, 4, 0.5, 2), uniform<D>({3, 4}, 5, -1, 2)}));
}

TEST_CASE_TEMPLATE("16-bit unary math and activations match fp64", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto x = uniform<D>({4, 6}, 6, -2, 2), positive = uniform<D>({4, 6}, 7, 0.5, 3);
  CHECK(matches_fp64<H, D>("neg", [](const auto& v) { return -v[0]; }, {x}));
  CHECK(matches_fp64<H, D>("abs", [](const auto& v) { return kt::abs(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("exp", [](const auto& v) { return kt::exp(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("log", [](const auto& v) { return kt::log(v[0]); }, {positive}));
  CHECK(matches_fp64<H, D>("sqrt", [](const auto& v) { return kt::sqrt(v[0]); }, {positive}));
  CHECK(matches_fp64<H, D>("sin", [](const auto& v) { return kt::sin(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("cos", [](const auto& v) { return kt::cos(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("clamp", [](const auto& v) { return kt::clamp(v[0], -0.7, 0.9); }, {x}));
  CHECK(matches_fp64<H, D>("relu", [](const auto& v) { return kt::relu(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("gelu", [](const auto& v) { return kt::gelu(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("tanh", [](const auto& v) { return kt::tanh(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("sigmoid", [](const auto& v) { return kt::sigmoid(v[0]); }, {x}));
}

TEST_CASE_TEMPLATE("16-bit reductions match fp64 and accumulate in fp32", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto x = uniform<D>({3, 5, 4}, 8);
  CHECK(matches_fp64<H, D>("sum", [](const auto& v) { return kt::sum(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("sum(dim)", [](const auto& v) { return kt::sum(v[0], 1); }, {x}));
  CHECK(matches_fp64<H, D>("mean", [](const auto& v) { return kt::mean(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("mean(dim, keepdim)", [](const auto& v) { return kt::mean(v[0], 2, true); }, {x}));
  CHECK(matches_fp64<H, D>("max", [](const auto& v) { return kt::max(v[0]); }, {x}));
  CHECK(matches_fp64<H, D>("min(dim)", [](const auto& v) { return kt::min(v[0], 0); }, {x}));
  // 8192 values in [0.5, 1.5]: a 16-bit running sum would stall far below the 8192 they add to.
  const auto long_row = uniform<D>({2, 8192}, 9, 0.5, 1.5);
  CHECK(matches_fp64<H, D>("sum of 16384", [](const auto& v) { return kt::sum(v[0]); }, {long_row}));
  CHECK(matches_fp64<H, D>("sum(dim) of 8192", [](const auto& v) { return kt::sum(v[0], 1); }, {long_row}));
  CHECK(matches_fp64<H, D>("mean of 16384", [](const auto& v) { return kt::mean(v[0]); }, {long_row}));
}

TEST_CASE_TEMPLATE("16-bit shape ops match fp64 exactly", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto x = uniform<D>({2, 3, 4}, 10);
  // Shape ops move values without arithmetic: their outputs and gradients are exact.
  CHECK(matches_fp64<H, D>("reshape", [](const auto& v) { return kt::reshape(v[0], {4, 6}); }, {x}, 0));
  CHECK(matches_fp64<H, D>("flatten", [](const auto& v) { return kt::flatten(v[0], 1); }, {x}, 0));
  CHECK(matches_fp64<H, D>("slice", [](const auto& v) { return kt::slice(v[0], 1, 2); }, {x}, 0));
  CHECK(matches_fp64<H, D>("select", [](const auto& v) { return kt::select(v[0], 1); }, {x}, 0));
  CHECK(matches_fp64<H, D>("permute", [](const auto& v) { return kt::permute(v[0], {2, 0, 1}); }, {x}, 0));
  CHECK(matches_fp64<H, D>("transpose", [](const auto& v) { return kt::transpose(v[0], 0, 2); }, {x}, 0));
}

TEST_CASE_TEMPLATE("16-bit matmul and linear match fp64 (fp32 accumulation)", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto a = uniform<D>({5, 300}, 11), b = uniform<D>({300, 7}, 12);
  // K = 300 terms per output: errors relative to the largest output, whose terms can cancel,
  // so allow a few units more than for single-rounding ops.
  CHECK(matches_fp64<H, D>("matmul", [](const auto& v) { return kt::matmul(v[0], v[1]); }, {a, b}, 8));
  CHECK(matches_fp64<H, D>("batched matmul", [](const auto& v) { return kt::matmul(v[0], v[1]); },
                           {uniform<D>({3, 4, 40}, 13), uniform<D>({3, 40, 5}, 14)}, 8));
  CHECK(matches_fp64<H, D>("broadcast matmul", [](const auto& v) { return kt::matmul(v[0], v[1]); },
                           {uniform<D>({3, 4, 40}, 15), uniform<D>({40, 5}, 16)}, 8));
  const auto x = uniform<D>({6, 200}, 17), w = uniform<D>({9, 200}, 18), bias = uniform<D>({9}, 19);
  for (auto act : {kt::Activation::Identity, kt::Activation::ReLU, kt::Activation::GELU, kt::Activation::Tanh,
                   kt::Activation::Sigmoid}) {
    CAPTURE(static_cast<int>(act));
    CHECK(matches_fp64<H, D>("linear", [act](const auto& v) { return kt::linear(v[0], v[1], v[2], act); },
                             {x, w, bias}, 8));
  }
  CHECK(matches_fp64<H, D>("linear without bias", [](const auto& v) { return kt::linear(v[0], v[1]); }, {x, w}, 8));
}

TEST_CASE_TEMPLATE("16-bit softmax, log_softmax and layer_norm match fp64 (fp32 accumulation)", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto x = uniform<D>({4, 7}, 20, -3, 3);
  CHECK(matches_fp64<H, D>("softmax", [](const auto& v) { return kt::softmax(v[0], 1); }, {x}));
  CHECK(matches_fp64<H, D>("softmax(dim 0)", [](const auto& v) { return kt::softmax(v[0], 0); }, {x}));
  CHECK(matches_fp64<H, D>("log_softmax", [](const auto& v) { return kt::log_softmax(v[0], 1); }, {x}));
  const auto wide = uniform<D>({3, 4096}, 21, -3, 3);
  CHECK(matches_fp64<H, D>("softmax over 4096", [](const auto& v) { return kt::softmax(v[0], 1); }, {wide}));
  CHECK(matches_fp64<H, D>("log_softmax over 4096", [](const auto& v) { return kt::log_softmax(v[0], 1); }, {wide}));
  const auto weight = uniform<D>({4096}, 22, 0.5, 1.5), bias = uniform<D>({4096}, 23);
  CHECK(matches_fp64<H, D>("layer_norm over 4096",
                           [](const auto& v) { return kt::layer_norm(v[0], {4096}, v[1], v[2]); },
                           {uniform<D>({3, 4096}, 24, 1, 3), weight, bias}));
  CHECK(matches_fp64<H, D>("layer_norm",
                           [](const auto& v) { return kt::layer_norm(v[0], {7}, v[1], v[2]); },
                           {x, uniform<D>({7}, 25, 0.5, 1.5), uniform<D>({7}, 26)}));
}

TEST_CASE_TEMPLATE("16-bit losses and dropout match fp64 (fp32 accumulation)", C, KT_FLOAT16_CASES) {
  using H = typename C::dtype;
  using D = typename C::device;
  const auto logits = uniform<D>({4096, 10}, 27, -3, 3);
  const auto target = kt::randint<std::int64_t, D>(0, 10, {4096}, 28);
  CHECK(matches_fp64<H, D>("cross_entropy over 4096 rows",
                           [&](const auto& v) { return kt::cross_entropy(v[0], target); }, {logits}));
  CHECK(matches_fp64<H, D>("cross_entropy (sum, label smoothing)",
                           [&](const auto& v) {
                             return kt::cross_entropy(v[0], target,
                                                      kt::CrossEntropyOptions().reduction(kt::Reduction::Sum).label_smoothing(0.1));
                           },
                           {logits}));
  CHECK(matches_fp64<H, D>("nll_loss",
                           [&](const auto& v) { return kt::nll_loss(kt::log_softmax(v[0], 1), target); }, {logits}));
  CHECK(matches_fp64<H, D>("mse_loss over 16384",
                           [](const auto& v) { return kt::mse_loss(v[0], v[1]); },
                           {uniform<D>({4, 4096}, 29), uniform<D>({4, 4096}, 30)}));
  CHECK(matches_fp64<H, D>("dropout with a fixed seed",
                           [](const auto& v) {
                             kt::Generator gen(31);
                             return kt::dropout(v[0], 0.3, true, gen);
                           },
                           {uniform<D>({8, 16}, 32)}));
}
