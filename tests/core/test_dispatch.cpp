// Choosing the device at run time: kt::dispatch_device, kt::best_device, tensor.device().

#include "kt_test.hpp"

#include <kt/core/dispatch.hpp>

#include <string>
#include <type_traits>

TEST_CASE("dispatch_device runs the generic callable on the named device") {
  const auto name_of = [](auto tag) { return kt::device_name<typename decltype(tag)::type>(); };
  CHECK(kt::dispatch_device("serial", name_of) == "Serial");
  CHECK(kt::dispatch_device("SERIAL", name_of) == "Serial");
#if defined(KOKKOS_ENABLE_OPENMP)
  CHECK(kt::dispatch_device("openmp", name_of) == "OpenMP");
#endif
  // "auto" and "" pick the best available device: a GPU when one is present.
  const std::string best = kt::best_device();
  CHECK(kt::dispatch_device("auto", name_of) == kt::dispatch_device(best, name_of));
  CHECK(kt::dispatch_device("", name_of) == kt::dispatch_device(best, name_of));
#if defined(KOKKOS_ENABLE_CUDA)
  CHECK((best == "cuda") == kt::is_available<kt::Cuda>());
#elif defined(KOKKOS_ENABLE_OPENMP)
  CHECK(best == "openmp");
#else
  CHECK(best == "serial");
#endif
  // The callable runs on that device.
  const double total = kt::dispatch_device("serial", [](auto tag) {
    using D = typename decltype(tag)::type;
    return static_cast<double>(kt::sum(kt::ones<float, D>({10})).item());
  });
  CHECK(total == 10.0);
}

TEST_CASE("dispatch_device names the compiled-in devices when asked for another") {
  const std::string error = kt_test::error_of([] { kt::dispatch_device("tpu", [](auto) { return 0; }); });
  CHECK(error.find("kt::dispatch_device: no device \"tpu\" among those this call is compiled for: ") == 0);
  CHECK(error.find("serial") != std::string::npos);
#if !defined(KOKKOS_ENABLE_CUDA)
  CHECK(error.find("cuda") == std::string::npos);
  CHECK(kt_test::error_of([] { kt::dispatch_device("cuda", [](auto) { return 0; }); }).find("no device \"cuda\"") !=
        std::string::npos);
#endif
}

TEST_CASE_TEMPLATE("tensor.device() names the device at run time", D, KT_DEVICES) {
  const auto t = kt::zeros<float, D>({2});
  const kt::DeviceId id = t.device();
  CHECK(id == kt::device_id<D>());
  if constexpr (kt::is_cuda_v<D>) {
    CHECK(id.type == "cuda");
    CHECK(id.str().rfind("cuda:", 0) == 0);
  } else {
    CHECK(id.index == -1);
    CHECK(id.str() == kt::impl::device_key<D>());
  }
}

TEST_CASE("dispatch_device<Devices...> compiles the callable for those devices only") {
  const auto name_of = [](auto tag) { return kt::device_name<typename decltype(tag)::type>(); };
  const std::string best =
      kt::is_available<kt::DefaultDevice>() ? kt::device_name<kt::DefaultDevice>() : kt::device_name<kt::Host>();
  CHECK(kt::dispatch_device<kt::DefaultDevice, kt::Host>("auto", name_of) == best);
  CHECK(kt::dispatch_device<kt::Host>("auto", name_of) == kt::device_name<kt::Host>());
  CHECK(kt::dispatch_device<kt::Serial>("serial", name_of) == "Serial");
  // The list keeps the enabled devices' order (most capable first), each device once.
  using Program = kt::impl::enabled_among_t<kt::Host, kt::DefaultDevice>;
  using Expected = std::conditional_t<std::is_same_v<kt::Host, kt::DefaultDevice>, kt::impl::DeviceList<kt::Host>,
                                      kt::impl::DeviceList<kt::DefaultDevice, kt::Host>>;
  CHECK(std::is_same_v<Program, Expected>);
  CHECK(std::is_same_v<kt::impl::enabled_among_t<kt::Serial, kt::Serial>, kt::impl::DeviceList<kt::Serial>>);
#if defined(KOKKOS_ENABLE_OPENMP)
  CHECK(std::is_same_v<kt::impl::enabled_among_t<kt::Serial, kt::OpenMP>, kt::impl::DeviceList<kt::OpenMP, kt::Serial>>);
  // A device left out is an error that lists the ones compiled for.
  const std::string error = kt_test::error_of([] { kt::dispatch_device<kt::OpenMP>("serial", [](auto) { return 0; }); });
  CHECK(error.find("no device \"serial\" among those this call is compiled for: openmp (or \"auto\")") !=
        std::string::npos);
#endif
}
