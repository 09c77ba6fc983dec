// Must not compile: moving a module at run time to a device other than its own,
// kt::DefaultDevice and (for a host module) kt::Host: Serial, from an OpenMP build's default
// device. Fixed: build the model on that device and copy the state in.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::nn::Sequential<float, kt::OpenMP> model;
  model.push_back(kt::nn::Linear<float, kt::OpenMP>(3, 2));
#if defined(KT_COMPILE_FAIL_FIXED)
  kt::nn::Sequential<float, kt::Serial> on_serial;
  on_serial.push_back(kt::nn::Linear<float, kt::Serial>(3, 2));
  on_serial.copy_state_from(model);
#else
  auto on_serial = model.to<kt::Serial>();
#endif
  return on_serial.parameter_count() == 8 ? 0 : 1;
}
