// Must not compile: copying between tensors of different dtypes (kt::copy never converts
// silently). With KT_COMPILE_FAIL_FIXED it converts first and compiles (the positive control).
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto dst = kt::zeros<float, kt::OpenMP>({4});
  auto src = kt::ones<double, kt::Serial>({4});
#if defined(KT_COMPILE_FAIL_FIXED)
  kt::copy(dst, src.to<float>());
#else
  kt::copy(dst, src);
#endif
  return 0;
}
