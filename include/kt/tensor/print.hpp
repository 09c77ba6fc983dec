#pragma once
/// \file kt/tensor/print.hpp
/// Printing tensors the way PyTorch prints them (`print(x)` / `repr(x)`).
///
///     auto x = kt::randn<float>({2, 3}, /*seed=*/0);
///     std::cout << x << "\n";
///     // tensor([[ 0.1940,  2.1614, -0.1721],
///     //         [ 0.8491, -1.9244,  0.6530]], dtype=float32, device=OpenMP, shape=(2, 3))
///     std::string s = kt::to_string(x);
///
/// The rules are torch's (torch/_tensor_str.py with the default print options):
/// - one width for every element of a tensor, right-aligned;
/// - floating dtypes get 4 decimals ("0.1940"); all-integral values print as "3.";
///   scientific notation ("1.0000e-05") when the largest nonzero magnitude exceeds 1e8 or
///   1000 times the smallest, or (for non-integral values) the smallest is below 1e-4;
/// - 16-bit dtypes print their value as a float; integer dtypes print plain ("42");
/// - more than 1000 elements: each dimension longer than 6 shows its first and last 3
///   entries around "..."; lines wrap at 80 columns;
/// - the suffix always names the dtype and device (kt has no default dtype or device to
///   leave out) and, from rank 1 on, the shape:
///   `tensor(3.1416, dtype=float32, device=Serial)` (rank 0),
///   `tensor([], dtype=float32, device=OpenMP, shape=(0, 3))` (empty),
///   `tensor(undefined)` (a default-constructed tensor).
///
/// Printing copies the whole tensor to the host (`t.to_vector()`), so it works for tensors
/// on every device and waits for pending work on the tensor's device.

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/impl/print_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace kt {

/// The text `std::cout << t` prints (`repr(t)` in PyTorch).
template <class T, class D>
std::string to_string(const Tensor<T, D>& t) {
  if (!t.defined()) return "tensor(undefined)";
  KT_PROFILE_REGION("kt::to_string");
  std::vector<std::string> suffixes{std::string("dtype=") + dtype_name<T>(),
                                    std::string("device=") + D::name()};
  if (t.rank() > 0) suffixes.push_back("shape=" + t.shape().str());
  return impl::print::format_tensor(t.to_vector(), t.shape().dims(), suffixes);
}

/// Prints `t` like PyTorch's `print(t)`; see the rules at the top of this header.
template <class T, class D>
std::ostream& operator<<(std::ostream& os, const Tensor<T, D>& t) {
  return os << to_string(t);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
