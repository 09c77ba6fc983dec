// Choosing the device at run time: kt::dispatch_device, kt::best_device, tensor.device().

#include "kt_test.hpp"

#include <kt/core/dispatch.hpp>

#include <string>

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
  CHECK(error.find("kt::dispatch_device: no device \"tpu\" in this build; it has: ") == 0);
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
