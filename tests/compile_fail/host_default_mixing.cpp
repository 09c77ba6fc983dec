// Must not compile: a host tensor used with a kt::DefaultDevice tensor. In a host-only build
// the two are one type and this compiles and runs, then fails to compile in the Cuda build;
// with KT_DISTINCT_HOST_DEVICE (kt::Host = Serial, kt::DefaultDevice = OpenMP) it fails on the
// host build too. Fixed: move the host tensor with .to<kt::DefaultDevice>().
#define KT_DISTINCT_HOST_DEVICE
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  const auto host = kt::from_host<float, kt::Host>({1, 2, 3}, {3});
  const auto dev = kt::ones<float, kt::DefaultDevice>({3});
#if defined(KT_COMPILE_FAIL_FIXED)
  const auto sum = host.to<kt::DefaultDevice>() + dev;
#else
  const auto sum = host + dev;
#endif
  return sum.to_vector()[2] == 4.0f ? 0 : 1;
}
