// examples/tensor_basics: the C++ twin of the first PyTorch tutorial,
//
//   device = "cuda" if torch.cuda.is_available() else "cpu"
//   x = torch.randn(4, 3).to(device)
//   y = torch.relu(2 * x + torch.arange(3.)); r = y.sum(1); z = y @ w
//   print(z.cpu())
//
// step by step, printing each PyTorch line beside its kt spelling and the tensor it makes.

#include <kt/kt.hpp>

#include <iostream>

namespace {

void step(const char* title, const char* torch, const char* kt) {
  std::cout << "\n== " << title << "\n   PyTorch: " << torch << "\n   kt:      " << kt << "\n";
}

}  // namespace

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);  // starts Kokkos (and stops it at the end of main)

  // The device is a type, chosen at compile time: Cuda if built, else OpenMP, else Serial.
  using Device = kt::DefaultDevice;
  std::cout << "kt::DefaultDevice is " << kt::device_name<Device>() << " ("
            << kt::device_info<Device>().concurrency << " threads); kt::Host is "
            << kt::device_name<kt::Host>() << "\n";

  step("1. create on the host with an explicit seed",
       "x = torch.randn(4, 3, generator=torch.Generator().manual_seed(0))",
       "auto x = kt::randn<float, kt::Host>({4, 3}, /*seed=*/0);");
  auto x = kt::randn<float, kt::Host>({4, 3}, /*seed=*/0);
  std::cout << x << "\n";

  step("2. move to the device", "x = x.to(device)", "auto xd = x.to<Device>();");
  auto xd = x.to<Device>();  // a deep copy to GPU memory; no copy when the memory is shared
  std::cout << "   xd is on " << kt::device_name<Device>()
            << (xd.data() == x.data() ? " and shares x's host memory (no copy needed)\n"
                                      : ", a copy in device memory\n");

  step("3. elementwise math with broadcasting", "y = torch.relu(2 * x + torch.arange(3.))",
       "auto y = kt::relu(2.0f * xd + kt::arange<float, Device>(3));");
  auto y = kt::relu(2.0f * xd + kt::arange<float, Device>(3));  // (4, 3) + (3,) -> (4, 3)
  std::cout << y << "\n";

  step("4. reductions", "r = y.sum(1); m = y.mean()",
       "auto r = kt::sum(y, 1); auto m = kt::mean(y);");
  auto r = kt::sum(y, 1);
  auto m = kt::mean(y);
  std::cout << r << "\n" << m << "   (m.item() = " << m.item() << ")\n";

  step("5. matrix product", "z = y @ torch.randn(3, 2)",
       "auto z = kt::matmul(y, kt::randn<float, Device>({3, 2}, /*seed=*/1));");
  auto z = kt::matmul(y, kt::randn<float, Device>({3, 2}, /*seed=*/1));
  std::cout << z << "\n";

  step("6. back to the host", "z = z.cpu(); z.tolist()", "auto zh = z.host(); zh.to_vector();");
  auto zh = z.host();
  std::cout << zh << "\n   first row:";
  for (const float v : zh[0].to_vector()) std::cout << " " << v;
  std::cout << "\n\nDone: every step ran on " << kt::device_name<Device>() << ".\n";
  return 0;
}
