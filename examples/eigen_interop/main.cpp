// examples/eigen_interop: zero-copy Eigen views of kt tensors and kt tensors over Eigen
// matrices (kt/interop/eigen.hpp). No element is copied between the two libraries: each
// step writes through one side and reads through the other.

#include <kt/interop/eigen.hpp>
#include <kt/kt.hpp>

#include <Eigen/Dense>

#include <iostream>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);

  // 1. kt -> Eigen: an Eigen::Map over a host tensor's memory.
  auto a = kt::randn<double, kt::Host>({4, 4}, /*seed=*/5);
  auto b = kt::randn<double, kt::Host>({4, 2}, /*seed=*/6);
  auto ma = kt::as_eigen(a);  // Eigen::Map<Matrix<double, Dynamic, Dynamic, RowMajor>>
  auto mb = kt::as_eigen(b);
  std::cout << "a (kt):\n" << a << "\nthe same memory through Eigen:\n" << ma << "\n";

  // Eigen solves a x = b and writes the answer straight into a kt tensor.
  auto x = kt::empty<double, kt::Host>({4, 2});
  kt::as_eigen(x) = ma.partialPivLu().solve(mb);
  // Check with kt's own matmul: a @ x == b.
  const double residual = kt::max(kt::abs(kt::matmul(a, x) - b)).item();
  std::cout << "\nx = solve(a, b), computed by Eigen into a kt tensor:\n" << x
            << "\nmax |a @ x - b| with kt::matmul: " << residual << "\n";

  // 2. Eigen -> kt: a tensor that borrows a row-major Eigen matrix.
  kt::EigenMatrix<float> e(2, 3);  // Eigen::Matrix<float, Dynamic, Dynamic, RowMajor>
  e << 1, 2, 3, 4, 5, 6;
  auto t = kt::from_eigen(e);  // kt::Tensor<float, kt::Host>, shape (2, 3); e must outlive t
  t *= 10.0f;                  // kt writes ...
  std::cout << "\ne after t *= 10 on the kt side:\n" << e << "\n";
  e(0, 0) = -1;  // ... Eigen writes
  std::cout << "t after e(0, 0) = -1 on the Eigen side:\n" << t << "\n";

  // Borrowed tensors work with every kt op; moving to the device copies (as .to() always may).
  auto on_device = t.to<kt::DefaultDevice>();
  const float total = kt::sum(on_device).item();
  std::cout << "kt::sum on " << kt::device_name<kt::DefaultDevice>() << ": " << total
            << ", Eigen's sum: " << e.sum() << "\n";

  if (residual > 1e-10 || total != e.sum() || t.data() != e.data() || ma.data() != a.data()) {
    std::cout << "MISMATCH\n";
    return 1;
  }
  std::cout << "\nEigen and kt agree; no element was copied between them.\n";
  return 0;
}
