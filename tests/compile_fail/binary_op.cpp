// Must not compile: adding tensors that live on different devices. With
// KT_COMPILE_FAIL_FIXED it moves one operand first and compiles (the positive control).
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto a = kt::ones<float, kt::Serial>({2, 2});
  auto b = kt::ones<float, kt::OpenMP>({2, 2});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto c = a + b.to<kt::Serial>();
#else
  auto c = a + b;
#endif
  return c.numel() == 4 ? 0 : 1;
}
