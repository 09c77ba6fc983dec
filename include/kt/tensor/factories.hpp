#pragma once
/// \file kt/tensor/factories.hpp
/// Creating tensors: `torch.empty/zeros/ones/full/arange/linspace/tensor`.
///
///     auto a = kt::zeros<float, kt::OpenMP>({2, 3});
///     auto r = kt::arange<std::int64_t>(0, 10, 2);          // 0 2 4 6 8 on DefaultDevice
///     auto x = kt::from_host<float>(std::vector<float>{1, 2, 3, 4}, {2, 2});

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/host_wait.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/factories_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace kt {

/// A tensor with uninitialised elements.
template <class T, class D = DefaultDevice>
Tensor<T, D> empty(const Shape& shape) {
  KT_PROFILE_REGION("kt::empty");
  return Tensor<T, D>(shape);
}

/// A tensor with every element equal to `value`, filled on `exec`.
template <class T, class D>
Tensor<T, D> full(const D& exec, const Shape& shape, T value) {
  KT_PROFILE_REGION("kt::full");
  Tensor<T, D> out(shape, exec);
  out.fill_(exec, value);
  return out;
}
template <class T, class D = DefaultDevice>
Tensor<T, D> full(const Shape& shape, T value) { return full<T>(D(), shape, value); }

template <class T, class D>
Tensor<T, D> zeros(const D& exec, const Shape& shape) { return full<T>(exec, shape, T(0)); }
template <class T, class D = DefaultDevice>
Tensor<T, D> zeros(const Shape& shape) { return full<T>(D(), shape, T(0)); }

template <class T, class D>
Tensor<T, D> ones(const D& exec, const Shape& shape) { return full<T>(exec, shape, T(1)); }
template <class T, class D = DefaultDevice>
Tensor<T, D> ones(const Shape& shape) { return full<T>(D(), shape, T(1)); }

/// Same shape, dtype and device as `t`, every element `value` (any arithmetic value: T comes
/// from `t` alone, so `full_like(float_tensor, 2.0)` is a float tensor).
template <class T, class D>
Tensor<T, D> full_like(const Tensor<T, D>& t, compute_t<T> value) { return full<T>(D(), t.shape(), static_cast<T>(value)); }
template <class T, class D>
Tensor<T, D> zeros_like(const Tensor<T, D>& t) { return full<T>(D(), t.shape(), T(0)); }
template <class T, class D>
Tensor<T, D> ones_like(const Tensor<T, D>& t) { return full<T>(D(), t.shape(), T(1)); }
template <class T, class D>
Tensor<T, D> empty_like(const Tensor<T, D>& t) { return Tensor<T, D>(t.shape()); }

/// start, start+step, ... up to but excluding `end` (`torch.arange`), on `exec`.
template <class T, class D>
Tensor<T, D> arange(const D& exec, double start, double end, double step = 1) {
  KT_PROFILE_REGION("kt::arange");
  const std::int64_t n = impl::arange_count(start, end, step);
  Tensor<T, D> out(Shape{n}, exec);
  const auto v = out.view();
  impl::parallel_for(exec, "kt::arange", n, KOKKOS_LAMBDA(std::int64_t i) {
    v(i) = static_cast<T>(static_cast<compute_t<T>>(start + static_cast<double>(i) * step));
  });
  return out;
}
template <class T, class D = DefaultDevice>
Tensor<T, D> arange(double start, double end, double step = 1) { return arange<T>(D(), start, end, step); }
/// 0, 1, ..., end-1.
template <class T, class D = DefaultDevice>
Tensor<T, D> arange(double end) { return arange<T>(D(), 0, end, 1); }

/// `steps` evenly spaced values from start to end inclusive (`torch.linspace`), on `exec`.
template <class T, class D>
Tensor<T, D> linspace(const D& exec, double start, double end, std::int64_t steps) {
  KT_PROFILE_REGION("kt::linspace");
  static_assert(is_floating_dtype_v<T>, "kt::linspace: T must be a floating dtype");
  KT_REQUIRE(steps >= 0, "kt::linspace: steps must be non-negative, got ", steps);
  Tensor<T, D> out(Shape{steps}, exec);
  const auto v = out.view();
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  // Like PyTorch: the first half counts up from start, the second down from end, so both
  // ends are exact (a single step is `start`).
  const std::int64_t half = steps == 1 ? 1 : steps / 2;
  impl::parallel_for(exec, "kt::linspace", steps, KOKKOS_LAMBDA(std::int64_t k) {
    const double x = k < half ? start + step * static_cast<double>(k) : end - step * static_cast<double>(steps - 1 - k);
    v(k) = static_cast<T>(static_cast<compute_t<T>>(x));
  });
  return out;
}
template <class T, class D = DefaultDevice>
Tensor<T, D> linspace(double start, double end, std::int64_t steps) { return linspace<T>(D(), start, end, steps); }

/// Copies `shape.numel()` row-major elements from host memory (`torch.tensor(data)`); with
/// `exec`, the copy is ordered on it and `data` must stay valid until it is done.
template <class T, class D>
Tensor<T, D> from_host(const D& exec, const T* data, const Shape& shape) {
  KT_PROFILE_REGION("kt::from_host");
  KT_REQUIRE(data != nullptr || shape.numel() == 0, "kt::from_host: null pointer for shape ", shape.str());
  Tensor<T, D> out(shape, exec);
  if (out.numel() == 0) return out;
  const impl::view_t<const T, 1, Kokkos::HostSpace> source(data, static_cast<std::size_t>(out.numel()));
  if (impl::host_recording<D>() != nullptr) {
    // A recorded host step's replays copy what `data` held when the step was recorded: they
    // cannot count on `data` still being there.
    const Kokkos::View<T*, Kokkos::HostSpace> held(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kt::from_host"),
                                                  source.extent(0));
    std::copy(data, data + source.extent(0), held.data());
    impl::copy_views(exec, out.view(), held);
  } else {
    Kokkos::deep_copy(impl::work_instance(exec), out.view(), source);
  }
  return out;
}
template <class T, class D = DefaultDevice>
Tensor<T, D> from_host(const T* data, const Shape& shape) {
  impl::HostWait<memory_space_t<D>> wait("kt::from_host");
  Tensor<T, D> out = from_host<T>(D(), data, shape);
  impl::work_instance(D()).fence();  // data may go out of scope right after
  wait.done();
  return out;
}

/// Copies a host vector into a tensor of `shape`; sizes must match exactly.
template <class T, class D = DefaultDevice>
Tensor<T, D> from_host(const std::vector<T>& data, const Shape& shape) {
  KT_REQUIRE(static_cast<std::int64_t>(data.size()) == shape.numel(), "kt::from_host: ",
             data.size(), " values cannot fill shape ", shape.str(), " (", shape.numel(), " elements)");
  return from_host<T, D>(data.data(), shape);
}

/// A 1-D tensor holding a copy of `data`.
template <class T, class D = DefaultDevice>
Tensor<T, D> from_host(const std::vector<T>& data) {
  return from_host<T, D>(data.data(), Shape{static_cast<std::int64_t>(data.size())});
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
