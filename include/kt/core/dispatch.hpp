#pragma once
/// \file kt/core/dispatch.hpp
/// Choosing the device at run time among the compiled-in ones — PyTorch's
/// `device = "cuda" if torch.cuda.is_available() else "cpu"` for a library whose devices are
/// types. `kt::dispatch_device(name, f)` calls the generic callable `f` with a kt::DeviceTag of
/// the chosen device, so the code inside is compiled for every enabled device and runs on one.
///
///     int main(int argc, char* argv[]) {
///       kt::Runtime runtime(argc, argv);
///       return kt::dispatch_device(argc > 1 ? argv[1] : "auto", [&](auto tag) {
///         using D = typename decltype(tag)::type;   // kt::Cuda, kt::OpenMP or kt::Serial
///         auto x = kt::randn<float, D>({64, 784}, 0);
///         return train<D>(x);                         // every branch returns the same type
///       });
///     }
///
/// Names: "auto" (or "") picks the best available device — a GPU when one is present, else
/// the host pool, else Serial — and "cuda", "openmp", "serial", "threads", "hip", "sycl" name
/// one. A device that is not compiled in, or not usable here (a Cuda build without a GPU), is a
/// kt::Error listing the devices the call is compiled for. Needs a live kt::Runtime.
///
/// `f` is compiled once per device it may run on, which is most of such a program's compile
/// time. `kt::dispatch_device<kt::DefaultDevice, kt::Host>(name, f)` compiles it only for the
/// devices named (those that are enabled, in the order above): the accelerator and the host
/// pool in a Cuda build, the host pool alone in a host build, where Serial then is no choice.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/device_list.hpp"
#include "kt/core/impl/dispatch_impl.hpp"

#include <cctype>
#include <string>
#include <type_traits>
#include <utility>

namespace kt {


/// The name of the device "auto" picks: the first available of the enabled devices, GPUs first.
inline std::string best_device() { return impl::first_available(impl::enabled_devices{}); }

/// Calls f(kt::DeviceTag<D>{}) for the device D named by `name` (see the file comment) and
/// returns what f returns; f must return the same type for every device. D is one of
/// `Devices`, or of every enabled device when none are given.
template <class... Devices, class F>
decltype(auto) dispatch_device(std::string name, F&& f) {
  using List = std::conditional_t<sizeof...(Devices) == 0, impl::enabled_devices,
                                  impl::enabled_among_t<Devices...>>;
  static_assert(!std::is_same_v<List, impl::DeviceList<>>,
                "kt::dispatch_device<Devices...>: none of Devices is enabled in this Kokkos");
  name = impl::lower(name);
  if (name.empty()) name = "auto";
  using R = decltype(f(DeviceTag<DefaultDevice>{}));
  return impl::dispatch_checked<R>(name, List{}, std::forward<F>(f));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
