// Errors found on the device: a class index outside [0, C) in cross_entropy or nll_loss is
// checked by the loss's own reduction kernel, without a host wait. Host devices raise it from
// the op; a GPU raises it at the next host wait (item(), to_vector(), a blocking copy,
// kt::synchronize()), with the same text, the index and the value, and the steps in between
// count those targets as ignored.

#include "kt_test.hpp"

#include <kt/kt.hpp>

#include <cstdint>
#include <string>

using kt_test::error_of;

TEST_CASE_TEMPLATE("a bad class index is raised at the documented point", D, KT_DEVICES) {
  kt::Var<float, D> z(kt::zeros<float, D>({4, 3}), true);
  const auto bad = kt::from_host<std::int64_t, D>({0, 2, 7, -3}, {4});
  const std::string text = "kt::cross_entropy: 2 targets are outside [0, 3), the first at index 2 (value 7)";
  if constexpr (kt::is_host_accessible_v<D>) {
    CHECK(error_of([&] { (void)kt::cross_entropy(z, bad); }) == text);
    CHECK(error_of([&] { (void)kt::nll_loss(z, bad); }) ==
          "kt::nll_loss: 2 targets are outside [0, 3), the first at index 2 (value 7)");
  } else {
    // The op returns; the loss counts the bad rows as ignored: mean over the 2 good rows.
    kt::Var<float, D> loss;
    CHECK(error_of([&] { loss = kt::cross_entropy(z, bad); }) == "");
    const std::string raised = error_of([&] { (void)loss.item(); });
    CHECK(raised.rfind(text + " [found on the device", 0) == 0);
    CHECK(raised.find("reported at kt::Tensor::item") != std::string::npos);
    // Raised once: the record is clear afterwards, the loss readable.
    CHECK(loss.item() == doctest::Approx(std::log(3.0)));
    // Other wait points report it too.
    (void)kt::nll_loss(z, bad);
    CHECK(error_of([&] { kt::synchronize<D>(); }).find("reported at kt::synchronize") != std::string::npos);
    (void)kt::nll_loss(z, bad);
    CHECK(error_of([&] { (void)z.data().to_vector(); }).find("kt::nll_loss: 2 targets") == 0);
  }
  // Nothing is left pending after the error was raised.
  CHECK(error_of([&] { kt::synchronize<D>(); }) == "");
  // ignore_index is not an error.
  const auto ignored = kt::from_host<std::int64_t, D>({0, -100, 1, -100}, {4});
  CHECK(error_of([&] { (void)kt::cross_entropy(z, ignored).item(); }) == "");
}

TEST_CASE_TEMPLATE("the device-side reduction of a class-index loss", D, KT_DEVICES) {
  // 300 rows (more than one team's width on a GPU), every 7th ignored: the mean divides by the
  // counted rows, the gradient too; a mean over none is NaN with zero gradients.
  const std::int64_t n = 300;
  std::vector<std::int64_t> y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = i % 7 == 0 ? -100 : i % 5;
  const auto target = kt::from_host<std::int64_t, D>(y, {n});
  kt::Var<double, D> x(kt::randn<double, D>({n, 5}, 3), true);
  auto mean = kt::cross_entropy(x, target);
  auto rows = kt::cross_entropy(x, target, kt::CrossEntropyOptions().reduction(kt::Reduction::None));
  auto sum = kt::cross_entropy(x, target, kt::CrossEntropyOptions().reduction(kt::Reduction::Sum));
  const auto r = rows.data().to_vector();
  double total = 0;
  std::int64_t counted = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (i % 7 != 0) {
      total += r[static_cast<std::size_t>(i)];
      ++counted;
    } else {
      CHECK(r[static_cast<std::size_t>(i)] == 0.0);
    }
  CHECK(sum.item() == doctest::Approx(total).epsilon(1e-12));
  CHECK(mean.item() == doctest::Approx(total / static_cast<double>(counted)).epsilon(1e-12));
  mean.backward();
  const auto g = x.grad().to_vector();
  double row0 = 0;  // an ignored row has no gradient; a counted row's gradient sums to 0
  for (int j = 0; j < 5; ++j) row0 += std::abs(g[static_cast<std::size_t>(j)]);
  CHECK(row0 == 0.0);
  const auto none = kt::from_host<std::int64_t, D>(std::vector<std::int64_t>(static_cast<std::size_t>(n), -100), {n});
  kt::Var<double, D> x2(kt::randn<double, D>({n, 5}, 4), true);
  auto empty = kt::cross_entropy(x2, none);
  CHECK(std::isnan(empty.item()));
  empty.backward();
  for (double v : x2.grad().to_vector()) CHECK(v == 0.0);
}
