// Must NOT compile: kt::addmm_ into a float output from double operands (only 16-bit operands
// may write a wider, fp32 output). The compiler's message is kt's static_assert naming the
// dtypes. With -DKT_COMPILE_FAIL_FIXED the output is fp32 from bfloat16 operands, which
// compiles.

#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto out = kt::zeros<float, kt::Serial>({2, 4});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto a = kt::ones<kt::bfloat16, kt::Serial>({2, 3});
  auto b = kt::ones<kt::bfloat16, kt::Serial>({3, 4});
#else
  auto a = kt::ones<double, kt::Serial>({2, 3});
  auto b = kt::ones<double, kt::Serial>({3, 4});
#endif
  kt::addmm_(out, a, b);
  return out.numel() == 8 ? 0 : 1;
}
