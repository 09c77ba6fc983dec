// Post-accumulate-grad hooks and backward callbacks: a hook runs once per backward, after the
// last gradient of that backward reached its leaf (a leaf used twice sees the sum), in the
// order the sweep finishes with the leaves (the last layer's first), and never for a leaf the
// backward did not reach; queued callbacks run after every hook.

#include "kt_test.hpp"

#include <string>
#include <vector>

TEST_CASE_TEMPLATE("post-accumulate-grad hooks see the complete gradient, once, as the sweep finishes each leaf", D,
                   KT_DEVICES) {
  kt::Var<double, D> w1(kt::from_host<double, D>({2.0, -1.0}, {2}), true);
  kt::Var<double, D> w2(kt::from_host<double, D>({3.0, 5.0}, {2}), true);
  kt::Var<double, D> unused(kt::from_host<double, D>({1.0}, {1}), true);
  std::vector<std::string> events;
  std::vector<double> w1_grad_seen;
  auto h1 = w1.register_post_accumulate_grad_hook([&](const kt::Var<double, D>& p) {
    events.push_back("w1");
    w1_grad_seen = p.grad().to_vector();
    kt::autograd::queue_callback([&] { events.push_back("done"); });
  });
  auto h2 = w2.register_post_accumulate_grad_hook([&](const kt::Var<double, D>&) { events.push_back("w2"); });
  unused.register_post_accumulate_grad_hook([&](const kt::Var<double, D>&) { events.push_back("unused"); });

  // loss = sum((w1 * w1) * w2): w1 reaches the graph twice; d/dw1 = 2 w1 w2, d/dw2 = w1².
  auto loss = kt::sum((w1 * w1) * w2);
  loss.backward();
  CHECK(events == std::vector<std::string>{"w2", "w1", "done"});
  CHECK(w1_grad_seen == std::vector<double>{12.0, -10.0});
  CHECK(w2.grad().to_vector() == std::vector<double>{4.0, 1.0});

  // Every backward runs them again (gradients accumulate); a removed hook no longer runs.
  events.clear();
  h2.remove();
  kt::sum((w1 * w1) * w2).backward();
  CHECK(events == std::vector<std::string>{"w1", "done"});
  CHECK(w1_grad_seen == std::vector<double>{24.0, -20.0});
  h1.remove();
  h1.remove();  // twice: nothing
  events.clear();
  kt::sum(w1 * w2).backward();
  CHECK(events.empty());
}

TEST_CASE_TEMPLATE("a hook on a leaf that is itself the root, and the errors of misuse", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::from_host<float, D>({1.5f}, {1}), true);
  int calls = 0;
  w.register_post_accumulate_grad_hook([&](const kt::Var<float, D>& p) {
    ++calls;
    CHECK(p.is_same(w));
  });
  w.backward();
  CHECK(calls == 1);

  CHECK(kt_test::error_of([] { kt::autograd::queue_callback([] {}); }).find("no backward is running") !=
        std::string::npos);
  auto y = w * 2.0f;
  CHECK(kt_test::error_of([&] { y.register_post_accumulate_grad_hook([](const kt::Var<float, D>&) {}); })
            .find("is the output of") != std::string::npos);
  kt::Var<float, D> constant(kt::from_host<float, D>({1.0f}, {1}));
  CHECK(kt_test::error_of([&] { constant.register_post_accumulate_grad_hook([](const kt::Var<float, D>&) {}); })
            .find("does not require grad") != std::string::npos);
}

TEST_CASE_TEMPLATE("callbacks are not run when the backward throws", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::from_host<float, D>({1.0f, 2.0f}, {2}), true);
  bool ran = false;
  w.register_post_accumulate_grad_hook([&](const kt::Var<float, D>&) {
    kt::autograd::queue_callback([&] { ran = true; });
    KT_THROW("hook failed");
  });
  CHECK_THROWS_AS(kt::sum(w * w).backward(), kt::Error);
  CHECK_FALSE(ran);
  // The engine is usable afterwards: a new backward runs its own callbacks only.
  CHECK_THROWS_AS(kt::sum(w * w).backward(), kt::Error);
  CHECK_FALSE(ran);
}
