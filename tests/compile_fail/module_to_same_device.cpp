// Must not compile: moving a module to the device it is already on (to<D>() would return a
// copy nobody asked for). Fixed: use the module itself, or clone() for a copy.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::nn::Linear<float, kt::Serial> fc(3, 2);
#if defined(KT_COMPILE_FAIL_FIXED)
  auto copy = fc.clone();
#else
  auto copy = fc.to<kt::Serial>();
#endif
  return copy.parameter_count() == 8 ? 0 : 1;
}
