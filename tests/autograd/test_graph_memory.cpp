// The graph refers to its variables' autograd state, not to their values: an intermediate
// result whose value no backward function saved is freed with its last Var handle.

#include "kt_test.hpp"

#include <vector>

TEST_CASE_TEMPLATE("the graph keeps no intermediate value that no backward saved", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::ones<float, D>({1000}), true);
  const auto base = kt::memory_stats<D>().allocated;
  kt::Var<float, D> loss;
  {
    auto a = w + 1.0f;  // adding a constant: the backward passes the gradient through, saves nothing
    auto b = a + 2.0f;
    CHECK(kt::memory_stats<D>().allocated - base >= 2 * 4000);
    loss = kt::sum(b);
  }
  // a's and b's values (4,000 bytes each) are gone; the graph through them still runs.
  CHECK(kt::memory_stats<D>().allocated - base < 4000);
  loss.backward();
  CHECK(w.grad().to_vector() == std::vector<float>(1000, 1.0f));
}
