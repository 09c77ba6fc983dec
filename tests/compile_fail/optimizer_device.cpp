// Must not compile: an optimizer for another device than the model's parameters. Fixed:
// build it for the model's device.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::nn::Linear<float, kt::Serial> model(3, 2);
#if defined(KT_COMPILE_FAIL_FIXED)
  kt::optim::SGD<float, kt::Serial> opt(model.parameters(), 0.1);
#else
  kt::optim::SGD<float, kt::OpenMP> opt(model.parameters(), 0.1);
#endif
  return opt.params().size() == 2 ? 0 : 1;
}
