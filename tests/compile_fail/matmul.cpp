// Must NOT compile: kt::matmul of a Serial tensor with an OpenMP tensor. The compiler's
// message is kt's static_assert, naming both devices and the fix (.to<Device>()).
// With -DKT_COMPILE_FAIL_FIXED the second operand is moved first, and the program compiles.

#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto a = kt::ones<float, kt::Serial>({2, 3});
  auto b = kt::ones<float, kt::OpenMP>({3, 4});
#if defined(KT_COMPILE_FAIL_FIXED)
  auto c = kt::matmul(a, b.to<kt::Serial>());
#else
  auto c = kt::matmul(a, b);
#endif
  return c.numel() == 8 ? 0 : 1;
}
