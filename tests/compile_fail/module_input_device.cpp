// Must not compile: calling a module with an input on another device. Fixed: move the input.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::nn::Linear<float, kt::Serial> fc(3, 2);
  auto x = kt::ones<float, kt::OpenMP>({4, 3});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto y = fc(x.to<kt::Serial>());
#else
  auto y = fc(x);
#endif
  return y.numel() == 8 ? 0 : 1;
}
