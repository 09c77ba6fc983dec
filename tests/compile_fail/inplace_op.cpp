// Must not compile: accumulating a tensor from another device in place. With
// KT_COMPILE_FAIL_FIXED it moves the operand first and compiles (the positive control).
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto grad = kt::zeros<float, kt::OpenMP>({3});
  auto update = kt::ones<float, kt::Serial>({3});
#if defined(KT_COMPILE_FAIL_FIXED)
  grad += update.to<kt::OpenMP>();
#else
  grad += update;
#endif
  return grad.numel() == 3 ? 0 : 1;
}
