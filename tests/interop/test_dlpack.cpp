// Tests of kt/interop/dlpack.hpp: a kt tensor through DLPack and back shares its memory (same
// pointer, writes seen both ways) on every device and dtype; the DLManagedTensor keeps a kt
// tensor's memory alive after the tensor is gone, and a kt tensor keeps a producer's memory
// alive, its deleter called exactly once after the last shallow copy; the dtype, device and
// layout checks refuse with messages naming what differs and leave the capsule untouched.
// PyTorch on the other side: tests/interop/dlpack_torch/.

#include "kt_test.hpp"

#if __has_include(<dlpack/dlpack.h>)
#include <kt/interop/dlpack.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

/// A producer-side DLManagedTensor over `values` (host memory), counting deleter calls.
struct HostProducer {
  std::vector<float> values;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed{};
  int deleted = 0;

  HostProducer(std::vector<float> v, std::vector<std::int64_t> s, std::vector<std::int64_t> st = {})
      : values(std::move(v)), shape(std::move(s)), strides(std::move(st)) {
    managed.dl_tensor.data = values.data();
    managed.dl_tensor.device = {kDLCPU, 0};
    managed.dl_tensor.ndim = static_cast<int>(shape.size());
    managed.dl_tensor.dtype = {kDLFloat, 32, 1};
    managed.dl_tensor.shape = shape.data();
    managed.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) { ++static_cast<HostProducer*>(self->manager_ctx)->deleted; };
  }
};

}  // namespace

TEST_CASE_TEMPLATE("DLPack: a kt tensor and back is the same memory", TestCase, KT_ALL_FLOAT_CASES,
                   KT_CASES(std::int32_t), KT_CASES(std::int64_t), KT_CASES(std::uint8_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const auto x = kt::arange<T, D>(6).reshape({2, 3});
  DLManagedTensor* m = kt::to_dlpack(x);
  CHECK(m->dl_tensor.data == static_cast<void*>(x.data()));
  CHECK(m->dl_tensor.ndim == 2);
  CHECK(m->dl_tensor.shape[0] == 2);
  CHECK(m->dl_tensor.shape[1] == 3);
  CHECK(m->dl_tensor.strides[0] == 3);
  CHECK(m->dl_tensor.strides[1] == 1);
  CHECK(static_cast<std::size_t>(m->dl_tensor.dtype.bits) == 8 * sizeof(T));
  CHECK(m->dl_tensor.device.device_type == (kt::is_host_accessible_v<D> ? kDLCPU : kDLCUDA));
  const auto y = kt::from_dlpack<T, D>(m);  // y owns m now
  CHECK(y.data() == x.data());
  CHECK(y.shape() == x.shape());
  y.fill_(T(7));
  CHECK(x.to_vector() == std::vector<T>(6, T(7)));
}

TEST_CASE_TEMPLATE("DLPack: the capsule keeps a kt tensor's memory alive", D, KT_DEVICES) {
  const auto before = kt::memory_stats<D>().allocated;
  DLManagedTensor* m = nullptr;
  {
    const auto x = kt::full<float, D>({1000}, 2.5f);
    m = kt::to_dlpack(x);
  }  // x is gone; m still holds its memory
  CHECK(kt::memory_stats<D>().allocated > before);
  const auto y = kt::from_dlpack<float, D>(m);
  CHECK(y.to_vector() == std::vector<float>(1000, 2.5f));
  {
    DLManagedTensor* unused = kt::to_dlpack(y);
    unused->deleter(unused);  // a consumer that is done with it
  }
  CHECK(kt::sum(y).item() == doctest::Approx(2500.0));
}

TEST_CASE("DLPack: a kt tensor keeps the producer's memory until its last copy is gone") {
  HostProducer p({1, 2, 3, 4, 5, 6}, {2, 3});
  {
    auto t = kt::from_dlpack<float, kt::Host>(&p.managed);
    CHECK(t.data() == p.values.data());
    auto copy = t;                    // a shallow copy shares the memory
    auto row = t.reshape({3, 2});     // so does a view
    t = kt::Tensor<float, kt::Host>();
    CHECK(p.deleted == 0);
    row.fill_(0.0f);
    CHECK(p.values == std::vector<float>(6, 0.0f));
    CHECK(p.deleted == 0);
  }
  CHECK(p.deleted == 1);
}

TEST_CASE("DLPack: byte offsets, rank 0, empty tensors and strides of extent-1 dimensions") {
  HostProducer offset({0, 0, 1, 2}, {2});
  offset.managed.dl_tensor.byte_offset = 2 * sizeof(float);
  CHECK(kt::from_dlpack<float, kt::Host>(&offset.managed).to_vector() == std::vector<float>{1, 2});
  HostProducer scalar({4}, {});
  CHECK(kt::from_dlpack<float, kt::Host>(&scalar.managed).item() == 4.0f);
  HostProducer empty({}, {0, 3}, {7, 9});
  CHECK(kt::from_dlpack<float, kt::Host>(&empty.managed).numel() == 0);
  HostProducer column({1, 2, 3}, {3, 1}, {1, 99});  // PyTorch may write any stride for size 1
  CHECK(kt::from_dlpack<float, kt::Host>(&column.managed).to_vector() == std::vector<float>{1, 2, 3});
  CHECK(offset.deleted + scalar.deleted + empty.deleted + column.deleted == 4);
}

TEST_CASE("DLPack: refused inputs name what differs and stay the caller's") {
  HostProducer transposed({1, 2, 3, 4, 5, 6}, {3, 2}, {1, 3});
  const std::string layout = kt_test::error_of([&] { (void)kt::from_dlpack<float, kt::Host>(&transposed.managed); });
  CHECK(layout.find("strides (1, 3) for shape (3, 2) are not row-major contiguous") != std::string::npos);
  CHECK(layout.find("contiguous()") != std::string::npos);
  HostProducer ints({1, 2}, {2});
  ints.managed.dl_tensor.dtype = {kDLInt, 32, 1};
  CHECK(kt_test::error_of([&] { (void)kt::from_dlpack<float, kt::Host>(&ints.managed); })
            .find("holds int32, not float32") != std::string::npos);
  HostProducer gpu({1, 2}, {2});
  gpu.managed.dl_tensor.device = {kDLCUDA, 0};
  CHECK(kt_test::error_of([&] { (void)kt::from_dlpack<float, kt::Host>(&gpu.managed); })
            .find("is in CUDA (GPU 0) memory") != std::string::npos);
  HostProducer wide({1, 2}, {2});
  wide.managed.dl_tensor.dtype = {kDLFloat, 32, 4};
  CHECK(kt_test::error_of([&] { (void)kt::from_dlpack<float, kt::Host>(&wide.managed); })
            .find("float32 x 4 lanes") != std::string::npos);
  CHECK(kt_test::error_of([] { (void)kt::from_dlpack<float, kt::Host>(nullptr); }).find("null") != std::string::npos);
  CHECK(transposed.deleted + ints.deleted + gpu.deleted + wide.deleted == 0);  // still the caller's
}

#if defined(KOKKOS_ENABLE_CUDA)
TEST_CASE("DLPack: host memory is refused by Cuda tensors") {
  HostProducer p({1, 2}, {2});
  CHECK(kt_test::error_of([&] { (void)kt::from_dlpack<float, kt::Cuda>(&p.managed); }).find("is in CPU memory") !=
        std::string::npos);
  CHECK(p.deleted == 0);
}
#endif

#endif  // __has_include(<dlpack/dlpack.h>)
