// Must not compile: a Var and a Tensor of different devices in one differentiable op (here
// mse_loss with a Tensor target). Fixed: move the target.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::Var<float, kt::Serial> prediction(kt::zeros<float, kt::Serial>({4}), true);
  auto target = kt::ones<float, kt::OpenMP>({4});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto loss = kt::mse_loss(prediction, target.to<kt::Serial>());
#else
  auto loss = kt::mse_loss(prediction, target);
#endif
  return loss.numel() == 1 ? 0 : 1;
}
