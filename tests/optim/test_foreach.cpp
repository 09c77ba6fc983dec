// The grouped optimizer launches (several parameters per kernel, the default) against the
// one-launch-per-parameter kernels (`foreach(false)`): the same element function, so bit for
// bit on host devices (on a GPU the step scalars are computed by the device's math library in
// one and the host's in the other: to rounding), across group boundaries, every option and
// with parameters that have no gradient in some steps.

#include "kt_test.hpp"

#include <kt/kt.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

template <class D, class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (kt::is_host_accessible_v<D>) return a == b;
  else return kt_test::all_close(a, kt_test::as_double(b));
}

/// 11 parameters (more than one group of 8 or 6) of mixed sizes, with seeded gradients.
template <class T, class D>
std::vector<kt::Var<T, D>> make_params(std::uint64_t seed) {
  std::vector<kt::Var<T, D>> ps;
  const std::int64_t sizes[] = {7, 1, 300, 64, 5, 9000, 2, 33, 128, 1, 17};
  for (std::int64_t i = 0; i < 11; ++i)
    ps.emplace_back(kt::randn<T, D>({sizes[i]}, seed + static_cast<std::uint64_t>(i)), true);
  return ps;
}

/// Gives every parameter a gradient from `seed`, except parameter `skip` (none: -1).
template <class T, class D>
void set_grads(const std::vector<kt::Var<T, D>>& ps, std::uint64_t seed, int skip) {
  for (std::size_t i = 0; i < ps.size(); ++i) {
    ps[i].zero_grad(true);
    if (static_cast<int>(i) == skip) continue;
    auto loss = kt::sum(ps[i] * kt::Var<T, D>(kt::randn<T, D>(ps[i].shape(), seed * 31 + i)));
    loss.backward();
  }
}

template <class T, class D, class Opt, class Options>
void check_same(const Options& grouped, const char* what) {
  CAPTURE(what);
  auto a = make_params<T, D>(5), b = make_params<T, D>(5);
  Opt oa(a, grouped), ob(b, Options(grouped).foreach(false));
  for (int step = 0; step < 4; ++step) {
    const int skip = step == 2 ? 3 : -1;  // parameter 3 sits one step out
    set_grads(a, 100 + step, skip);
    set_grads(b, 100 + step, skip);
    oa.step();
    ob.step();
    if (step == 1) {
      oa.set_lr(oa.lr() * 0.5);  // a new learning rate reaches the grouped kernels
      ob.set_lr(ob.lr() * 0.5);
    }
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(same<D>(a[i].data().to_vector(), b[i].data().to_vector()));
    CHECK(oa.state(i).step == ob.state(i).step);
    for (const auto& kv : ob.state(i).tensors) CHECK(same<D>(oa.state(i).at(kv.first).to_vector(), kv.second.to_vector()));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("grouped SGD equals per-parameter SGD bit for bit", D, KT_DEVICES) {
  using kt::optim::SGDOptions;
  using Opt = kt::optim::SGD<float, D>;
  check_same<float, D, Opt>(SGDOptions(0.1), "plain");
  check_same<float, D, Opt>(SGDOptions(0.1).momentum(0.9), "momentum");
  check_same<float, D, Opt>(SGDOptions(0.05).momentum(0.9).dampening(0.3).weight_decay(0.01), "dampening, decay");
  check_same<float, D, Opt>(SGDOptions(0.1).momentum(0.9).nesterov(true).maximize(true), "nesterov, maximize");
  check_same<double, D, kt::optim::SGD<double, D>>(SGDOptions(0.1).momentum(0.9), "double");
}

TEST_CASE_TEMPLATE("grouped Adam and AdamW equal per-parameter ones bit for bit", D, KT_DEVICES) {
  using kt::optim::AdamOptions;
  using kt::optim::AdamWOptions;
  check_same<float, D, kt::optim::Adam<float, D>>(AdamOptions(1e-2), "adam");
  check_same<float, D, kt::optim::Adam<float, D>>(AdamOptions(1e-2).weight_decay(0.1).amsgrad(true), "adam amsgrad");
  check_same<float, D, kt::optim::Adam<float, D>>(AdamOptions(1e-2).maximize(true).betas(0.8, 0.99), "adam maximize");
  check_same<float, D, kt::optim::AdamW<float, D>>(AdamWOptions(1e-2), "adamw");
  check_same<float, D, kt::optim::AdamW<float, D>>(AdamWOptions(1e-2).amsgrad(true).weight_decay(0.3), "adamw amsgrad");
  check_same<kt::bfloat16, D, kt::optim::Adam<kt::bfloat16, D>>(AdamOptions(1e-2), "bfloat16");
}

TEST_CASE_TEMPLATE("grouped Adam continues from a loaded state", D, KT_DEVICES) {
  // The step counts live on the device for the grouped kernels: a loaded state (step 7) must
  // reach them before the next step.
  auto a = make_params<float, D>(9), b = make_params<float, D>(9);
  kt::optim::Adam<float, D> oa(a, kt::optim::AdamOptions(1e-2)), ob(b, kt::optim::AdamOptions(1e-2).foreach(false));
  set_grads(a, 1, -1);
  oa.step();
  auto sd = oa.state_dict();
  for (auto& s : sd.state) s.step = 7;
  oa.load_state_dict(sd);
  ob.load_state_dict(sd);
  for (std::size_t i = 0; i < a.size(); ++i) kt::copy(b[i].data(), a[i].data());
  set_grads(a, 2, -1);
  set_grads(b, 2, -1);
  oa.step();
  ob.step();
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(oa.state(i).step == 8);
    CHECK(same<D>(a[i].data().to_vector(), b[i].data().to_vector()));
  }
}
