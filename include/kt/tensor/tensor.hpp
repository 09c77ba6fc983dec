#pragma once
/// \file kt/tensor/tensor.hpp
/// `kt::Tensor<T, Device>`: an n-d array (rank 0-6) in contiguous row-major storage in the
/// device's memory space. Copies are shallow (they share storage, like torch.Tensor);
/// `clone()` is deep. Views (`reshape`, `flatten`, `slice`, `operator[]`) never copy.
///
///     auto x = kt::randn<float, kt::Host>({64, 784}, /*seed=*/0);
///     auto y = x.to<kt::DefaultDevice>();        // x.to(device)
///     auto v = y.view<2>();                      // Kokkos::View<float**> for your kernels
///     std::cout << y.reshape({64, 28, 28})[0];   // prints a (28, 28) tensor

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/cuda_devices.hpp"
#include "kt/core/impl/memory_space_name.hpp"
#include "kt/core/impl/stream_events.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/storage.hpp"
#include "kt/tensor/impl/view_type.hpp"
#include "kt/tensor/shape.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

namespace kt {

template <class T, class Device = DefaultDevice>
class Tensor {
  static_assert(is_dtype_v<T>, "kt::Tensor<T, Device>: T must be a kt dtype (float, double, "
                               "kt::half, kt::bfloat16, int32_t, int64_t, uint8_t)");
  static_assert(is_device_v<Device>, "kt::Tensor<T, Device>: Device must be a Kokkos execution "
                                     "space such as kt::Serial, kt::OpenMP, kt::Cuda");

public:
  using value_type = T;
  using device_type = Device;
  using memory_space = memory_space_t<Device>;
  /// The flat, unmanaged Kokkos View of the elements (what custom kernels index).
  using view_type = impl::view_t<T, 1, memory_space>;

  /// An undefined tensor (`defined()` is false); assign to it later.
  Tensor() = default;

  /// A tensor of the given shape with uninitialised elements (see also kt::empty), for work
  /// on the device's default instance.
  explicit Tensor(const Shape& shape) : Tensor(shape, Device()) {}

  /// The same, for work ordered on the instance `exec` (a CUDA stream on GPUs): the memory
  /// comes from the cache of exec's stream. Using the tensor on another instance is fine, but
  /// then call record_stream(that instance) before releasing it (as in PyTorch).
  Tensor(const Shape& shape, const Device& exec) : shape_(shape), defined_(true) {
    const auto numel = static_cast<std::size_t>(shape.numel());
    KT_REQUIRE(numel <= std::numeric_limits<std::size_t>::max() / sizeof(T),
               "kt::Tensor: ", shape.str(), " elements of ", dtype_name<T>(),
               " exceed the address space");
    if (numel > 0) storage_ = Storage::allocate(numel * sizeof(T), "kt::Tensor", impl::stream_id(exec));
  }

  /// Wraps memory owned elsewhere (the caller keeps it alive): `torch::from_blob`.
  static Tensor from_blob(T* data, const Shape& shape) {
    check_blob(data, shape);
    const auto bytes = static_cast<std::size_t>(shape.numel()) * sizeof(T);
    return Tensor(bytes > 0 ? Storage::borrow(data, bytes) : nullptr, 0, shape);
  }
  /// Wraps memory handed over to kt: `deleter(data)` runs once, when the last tensor sharing
  /// it is gone (`torch::from_blob(data, sizes, deleter)`), also for an empty shape.
  template <class Deleter>
  static Tensor from_blob(T* data, const Shape& shape, Deleter deleter) {
    check_blob(data, shape);
    const auto bytes = static_cast<std::size_t>(shape.numel()) * sizeof(T);
    return Tensor(Storage::adopt(data, bytes, [data, deleter]() mutable { deleter(data); }), 0, shape);
  }

  bool defined() const { return defined_; }
  /// The device as a run-time value (`tensor.device`): `cuda:0`, `openmp`, `serial`.
  DeviceId device() const { return device_id<Device>(); }
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  /// Extent of `dim` (negative dims count from the back).
  std::int64_t size(int dim) const { return shape_[dim]; }
  std::int64_t numel() const { return shape_.numel(); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * sizeof(T); }

  /// Pointer to the first element, in the device's memory space.
  T* data() const { return storage_ ? static_cast<T*>(storage_->data()) + offset_ : nullptr; }

  /// All elements as a flat Kokkos View (unmanaged: the tensor owns the memory).
  view_type view() const {
    require_defined("view");
    return view_type(data(), static_cast<std::size_t>(numel()));
  }

  /// The elements as a rank-R LayoutRight Kokkos View; R must equal rank().
  template <int R>
  impl::view_t<T, R, memory_space> view() const {
    require_defined("view");
    KT_REQUIRE(R == rank(), "kt::Tensor::view<", R, ">: the tensor has rank ", rank(),
               " (shape ", shape_.str(), ")");
    return impl::make_view<T, R, memory_space>(data(), shape_);
  }

  /// Same elements, new shape (one extent may be -1); never copies.
  Tensor reshape(const std::vector<std::int64_t>& dims) const;
  /// Merges dims start..end into one (`torch.flatten`); never copies.
  Tensor flatten(int start_dim = 0, int end_dim = -1) const;
  /// Rows [begin, end) along dim 0 (negative indices count from the end); never copies.
  Tensor slice(std::int64_t begin, std::int64_t end) const;
  /// Row i along dim 0, one rank lower; never copies.
  Tensor operator[](std::int64_t i) const;

  /// A deep copy on the same device (ordered on `exec`, or the default instance).
  Tensor clone() const { return clone(Device()); }
  Tensor clone(const Device& exec) const;

  /// The result of `to<X>()`: a device moves the tensor, a dtype converts it.
  template <class X>
  using to_t = std::conditional_t<is_device_v<X>, Tensor<T, X>, Tensor<X, Device>>;

  /// `x.to<OtherDevice>()` moves to another device (a deep copy unless both devices share a
  /// memory space, as Serial and OpenMP do); `x.to<double>()` converts the dtype. Both
  /// finish before returning.
  template <class X>
  to_t<X> to() const;
  /// The same, ordered on the execution-space instance `exec` (a CUDA stream on GPUs) of the
  /// source or destination device: call `exec.fence()` before using the result elsewhere.
  /// A device move on an instance always copies.
  template <class X, class Exec>
  to_t<X> to(const Exec& exec) const;
  /// The tensor on kt::Host (no copy when it already is host-accessible).
  Tensor<T, Host> host() const { return to<Host>(); }

  /// The only element of a one-element tensor, on the host (`tensor.item()`).
  T item() const;
  /// All elements, copied to a host vector in row-major order.
  std::vector<T> to_vector() const;
  /// Sets every element to `value` and returns *this (`tensor.fill_`).
  const Tensor& fill_(T value) const { return fill_(Device(), value); }
  const Tensor& fill_(const Device& exec, T value) const;

  /// Notes that work on `exec` (another instance than the one the tensor was allocated for)
  /// uses this tensor: its memory is then not reused for other work until the work queued on
  /// `exec` so far is done (`tensor.record_stream(stream)`). A no-op on host devices.
  void record_stream(const Device& exec) const {
    if (storage_) storage_->record_stream(impl::stream_id(exec));
  }

  /// The shared storage and the element offset of this view into it.
  const std::shared_ptr<impl::Storage<memory_space>>& storage() const { return storage_; }
  std::int64_t storage_offset() const { return offset_; }

private:
  using Storage = impl::Storage<memory_space>;
  template <class, class>
  friend class Tensor;

  Tensor(std::shared_ptr<Storage> storage, std::int64_t offset, const Shape& shape)
      : storage_(std::move(storage)), offset_(offset), shape_(shape), defined_(true) {}

  static void check_blob(T* data, const Shape& shape) {
    KT_REQUIRE(data != nullptr || shape.numel() == 0, "kt::Tensor::from_blob: null pointer for ",
               shape.str(), " elements");
    // A host pointer wrapped as GPU memory would fault in the first kernel, far from here.
    if constexpr (!is_host_accessible_v<Device>)
      KT_REQUIRE(data == nullptr || impl::cuda_can_access(data), "kt::Tensor<", dtype_name<T>(), ", ",
                 device_name<Device>(), ">::from_blob: ", static_cast<const void*>(data),
                 " is host memory the GPU cannot access (pageable, not registered); copy it with kt::from_host, "
                 "or wrap device memory (cudaMalloc, a Kokkos::View in ", impl::memory_space_name<memory_space_t<Device>>(),
                 ")");
  }

  void require_defined(const char* what) const {
    KT_REQUIRE(defined_, "kt::Tensor::", what, ": the tensor is undefined (default-constructed)");
  }

  std::shared_ptr<Storage> storage_;
  std::int64_t offset_ = 0;
  Shape shape_;
  bool defined_ = false;
};

}  // namespace kt

#include "kt/tensor/impl/tensor_impl.hpp"

#include "kt/core/impl/public_end.hpp"
