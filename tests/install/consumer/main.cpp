#include <kt/kt.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  // The project sets KT_AUTOCAST before find_package(kt): the region opens (else it throws).
  kt::amp::autocast<D> region;
  auto x = kt::from_host<float, D>(std::vector<float>{1, 2, 3});
  std::cout << "kt consumer: sum = " << kt::sum(x).item() << ", autocast "
            << (kt::amp::autocast<D>::is_enabled() ? "on" : "off") << "\n";
  return 0;
}
