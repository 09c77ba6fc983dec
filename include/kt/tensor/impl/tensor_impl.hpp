#pragma once
// Out-of-class members of kt::Tensor (included at the end of kt/tensor/tensor.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/convert.hpp"
#include "kt/core/impl/host_wait.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/dims_str.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

#include <string>
#include <type_traits>

namespace kt {

template <class T, class Device>
Tensor<T, Device> Tensor<T, Device>::reshape(const std::vector<std::int64_t>& dims) const {
  require_defined("reshape");
  std::vector<std::int64_t> out(dims);
  int inferred = -1;
  std::int64_t known = 1;
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (out[d] == -1) {
      KT_REQUIRE(inferred < 0, "kt::Tensor::reshape: only one dimension can be -1, got ",
                 impl::dims_str(dims));
      inferred = static_cast<int>(d);
    } else {
      KT_REQUIRE(out[d] >= 0, "kt::Tensor::reshape: negative extent ", out[d], " in dimension ", d);
      KT_REQUIRE(out[d] == 0 || known <= INT64_MAX / out[d], "kt::Tensor::reshape: shape ", impl::dims_str(dims),
                 " has more elements than int64 can count (a tensor of shape ", shape_.str(), " has ", numel(), ")");
      known *= out[d];
    }
  }
  if (inferred >= 0) {
    KT_REQUIRE(known != 0 && numel() % known == 0, "kt::Tensor::reshape: cannot infer dimension ",
               inferred, " of a reshape of ", shape_.str(), " (", numel(), " elements)");
    out[static_cast<std::size_t>(inferred)] = numel() / known;
  }
  const Shape shape(out);
  KT_REQUIRE(shape.numel() == numel(), "kt::Tensor::reshape: shape ", shape.str(), " (",
             shape.numel(), " elements) is invalid for a tensor of shape ", shape_.str(), " (",
             numel(), " elements)");
  return Tensor(storage_, offset_, shape);
}

template <class T, class Device>
Tensor<T, Device> Tensor<T, Device>::flatten(int start_dim, int end_dim) const {
  require_defined("flatten");
  if (rank() == 0) return reshape({1});
  const int start = shape_.normalize_dim(start_dim), end = shape_.normalize_dim(end_dim);
  KT_REQUIRE(start <= end, "kt::Tensor::flatten: start_dim ", start_dim, " comes after end_dim ",
             end_dim, " for shape ", shape_.str());
  std::vector<std::int64_t> dims;
  for (int d = 0; d < start; ++d) dims.push_back(shape_[d]);
  std::int64_t merged = 1;
  for (int d = start; d <= end; ++d) merged *= shape_[d];
  dims.push_back(merged);
  for (int d = end + 1; d < rank(); ++d) dims.push_back(shape_[d]);
  return Tensor(storage_, offset_, Shape(dims));
}

template <class T, class Device>
Tensor<T, Device> Tensor<T, Device>::slice(std::int64_t begin, std::int64_t end) const {
  require_defined("slice");
  KT_REQUIRE(rank() >= 1, "kt::Tensor::slice: cannot slice a rank-0 tensor");
  const std::int64_t n = shape_[0];
  const std::int64_t b = begin < 0 ? begin + n : begin, e = end < 0 ? end + n : end;
  KT_REQUIRE(b >= 0 && e <= n && b <= e, "kt::Tensor::slice: range [", begin, ", ", end,
             ") is out of bounds for dimension 0 of size ", n, " (shape ", shape_.str(), ")");
  return Tensor(storage_, offset_ + b * shape_.stride(0), shape_.with(0, e - b));
}

template <class T, class Device>
Tensor<T, Device> Tensor<T, Device>::operator[](std::int64_t i) const {
  require_defined("operator[]");
  KT_REQUIRE(rank() >= 1, "kt::Tensor::operator[]: cannot index a rank-0 tensor");
  const std::int64_t n = shape_[0];
  const std::int64_t k = i < 0 ? i + n : i;
  KT_REQUIRE(k >= 0 && k < n, "kt::Tensor::operator[]: index ", i,
             " is out of bounds for dimension 0 of size ", n, " (shape ", shape_.str(), ")");
  return Tensor(storage_, offset_ + k * shape_.stride(0), shape_.without(0));
}

template <class T, class Device>
Tensor<T, Device> Tensor<T, Device>::clone(const Device& exec) const {
  KT_PROFILE_REGION("kt::Tensor::clone");
  require_defined("clone");
  Tensor out(shape_, exec);
  if (numel() > 0) impl::copy_views(exec, out.view(), view());
  return out;
}

namespace impl {
/// dst(i) = convert(src(i)): the kernel of `to<dtype>()` (a functor: nvcc rejects extended
/// lambdas in functions with a deduced return type).
template <class To, class From, class MemSpace>
struct ConvertKernel {
  view_t<To, 1, MemSpace> dst;
  view_t<From, 1, MemSpace> src;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = convert<To>(src(i)); }
};
}  // namespace impl

template <class T, class Device>
template <class X>
typename Tensor<T, Device>::template to_t<X> Tensor<T, Device>::to() const {
  static_assert(is_device_v<X> || is_dtype_v<X>,
                "kt::Tensor::to<X>: X must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...) "
                "or a dtype (float, double, kt::half, ...)");
  require_defined("to");
  if constexpr (is_device_v<X>) {
    if constexpr (std::is_same_v<memory_space_t<X>, memory_space>) {
      // Same memory (e.g. Serial and OpenMP share HostSpace): share the storage, like
      // torch's .to() returning self. Finish this device's pending work first.
      Device().fence();
      return Tensor<T, X>(storage_, offset_, shape_);
    } else {
      KT_PROFILE_REGION("kt::Tensor::to");
      impl::HostWait<memory_space> wait("kt::Tensor::to");
      Tensor<T, X> out(shape_);
      if (numel() > 0) Kokkos::deep_copy(out.view(), view());
      wait.done();
      return out;
    }
  } else {
    if constexpr (std::is_same_v<X, T>) {
      return *this;
    } else {
      auto out = to<X>(Device());
      Device().fence();
      return out;
    }
  }
}

template <class T, class Device>
template <class X, class Exec>
typename Tensor<T, Device>::template to_t<X> Tensor<T, Device>::to(const Exec& exec) const {
  static_assert(is_device_v<X> || is_dtype_v<X>,
                "kt::Tensor::to<X>(exec): X must be a device (kt::Serial, kt::OpenMP, kt::Cuda, "
                "...) or a dtype (float, double, kt::half, ...)");
  require_defined("to");
  if constexpr (is_device_v<X>) {
    static_assert(std::is_same_v<Exec, Device> || std::is_same_v<Exec, X>,
                  "kt::Tensor::to<OtherDevice>(exec): exec must be an instance of the source or "
                  "the destination device");
    KT_PROFILE_REGION("kt::Tensor::to(exec)");
    Tensor<T, X> out = [&] {
      if constexpr (std::is_same_v<Exec, X>) return Tensor<T, X>(shape_, exec);
      else return Tensor<T, X>(shape_);
    }();
    if (numel() > 0) impl::copy_views(exec, out.view(), view());
    return out;
  } else {
    static_assert(std::is_same_v<Exec, Device>,
                  "kt::Tensor::to<dtype>(exec): exec must be an instance of the tensor's device");
    KT_PROFILE_REGION("kt::Tensor::to(dtype)");
    if constexpr (std::is_same_v<X, T>) {
      return *this;
    } else {
      Tensor<X, Device> out(shape_, exec);
      impl::parallel_for(exec, "kt::Tensor::to(dtype)", numel(),
                         impl::ConvertKernel<X, T, memory_space>{out.view(), view()});
      return out;
    }
  }
}

template <class T, class Device>
T Tensor<T, Device>::item() const {
  require_defined("item");
  KT_REQUIRE(numel() == 1, "kt::Tensor::item: the tensor has ", numel(),
             " elements (shape ", shape_.str(), "); item() needs exactly one");
  impl::HostWait<memory_space> wait("kt::Tensor::item");
  T value;
  Kokkos::deep_copy(impl::view_t<T, 0, Kokkos::HostSpace>(&value), Kokkos::subview(view(), 0));
  wait.done();
  return value;
}

template <class T, class Device>
std::vector<T> Tensor<T, Device>::to_vector() const {
  require_defined("to_vector");
  impl::HostWait<memory_space> wait("kt::Tensor::to_vector");
  std::vector<T> out(static_cast<std::size_t>(numel()));
  if (!out.empty())
    Kokkos::deep_copy(impl::view_t<T, 1, Kokkos::HostSpace>(out.data(), out.size()), view());
  wait.done();
  return out;
}

namespace impl {
/// v(i) = value: the kernel of fill_.
template <class T, class MemSpace>
struct FillKernel {
  view_t<T, 1, MemSpace> v;
  T value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { v(i) = value; }
};
}  // namespace impl

template <class T, class Device>
const Tensor<T, Device>& Tensor<T, Device>::fill_(const Device& exec, T value) const {
  KT_PROFILE_REGION("kt::Tensor::fill_");
  require_defined("fill_");
  impl::parallel_for(exec, "kt::Tensor::fill_", numel(), impl::FillKernel<T, memory_space>{view(), value});
  return *this;
}

}  // namespace kt

// kt_compiled (kt/core/impl/compiled.hpp): the out-of-class members of every dtype's tensor
// (a class's explicit instantiation holds its non-template members), and the conversions
// between the floating dtypes.
#define KT_ETI_TENSOR_ONE(T, D, KW) KW class kt::Tensor<T, D>;
#define KT_ETI_TENSOR_CONVERT(T, D, KW)                                        \
  KW kt::Tensor<float, D> kt::Tensor<T, D>::to<float>() const;                  \
  KW kt::Tensor<double, D> kt::Tensor<T, D>::to<double>() const;                \
  KW kt::Tensor<kt::half, D> kt::Tensor<T, D>::to<kt::half>() const;            \
  KW kt::Tensor<kt::bfloat16, D> kt::Tensor<T, D>::to<kt::bfloat16>() const;
#define KT_ETI_TENSOR(KW) \
  KT_ETI_EACH_DTYPE_DEVICE(KT_ETI_TENSOR_ONE, KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_TENSOR_CONVERT, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_TENSOR)
KT_ETI_TENSOR(extern template)
#endif
