#include <kt/kt.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  auto x = kt::from_host<float, kt::DefaultDevice>(std::vector<float>{1, 2, 3});
  std::cout << "kt consumer: sum = " << kt::sum(x).item() << "\n";
  return 0;
}
