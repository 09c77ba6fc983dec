#pragma once
// model.to<OtherDevice>() on a type-erased module: Module<T, D> declares one virtual
// conversion per device compiled into Kokkos (a virtual function cannot be a template), and
// every concrete module overrides them all through kt::nn::impl::Convertible.

#include <Kokkos_Core.hpp>

#include <memory>

namespace kt::nn {
template <class T, class D>
class Module;
}

namespace kt::nn::impl {

template <class D>
struct DeviceTag {};

// X(Device) for every enabled Kokkos execution space.
#if defined(KOKKOS_ENABLE_SERIAL)
#define KT_NN_IF_SERIAL(X) X(Kokkos::Serial)
#else
#define KT_NN_IF_SERIAL(X)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KT_NN_IF_OPENMP(X) X(Kokkos::OpenMP)
#else
#define KT_NN_IF_OPENMP(X)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define KT_NN_IF_CUDA(X) X(Kokkos::Cuda)
#else
#define KT_NN_IF_CUDA(X)
#endif
#define KT_NN_FOR_EACH_DEVICE(X) KT_NN_IF_SERIAL(X) KT_NN_IF_OPENMP(X) KT_NN_IF_CUDA(X)

/// The pure virtual conversions a Module<T, D> declares.
template <class T>
struct ConvertibleBase {
  virtual ~ConvertibleBase() = default;
#define KT_NN_DECLARE_TO(Dev) \
  virtual std::shared_ptr<Module<T, Dev>> to_device(DeviceTag<Dev>) const = 0;
  KT_NN_FOR_EACH_DEVICE(KT_NN_DECLARE_TO)
#undef KT_NN_DECLARE_TO
};

}  // namespace kt::nn::impl
