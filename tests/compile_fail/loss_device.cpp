// Must not compile: a loss of scores on one device against targets on another. Fixed: move
// the targets.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::Var<float, kt::Serial> logits(kt::zeros<float, kt::Serial>({2, 3}), true);
  auto labels = kt::zeros<std::int64_t, kt::OpenMP>({2});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto loss = kt::cross_entropy(logits, labels.to<kt::Serial>());
#else
  auto loss = kt::cross_entropy(logits, labels);
#endif
  return loss.numel() == 1 ? 0 : 1;
}
