#pragma once
/// \file kt/backend/cuda/cuda_pinned.hpp
/// Page-locked ("pinned") host memory and asynchronous copies on a stream — the staging that
/// lets a DataLoader overlap host-to-device copies with compute (PyTorch's pin_memory=True).
/// Kokkos-free; errors are kt::Error.
///
///     kt::cuda::PinnedBuffer<float> batch(64 * 784);     // cudaMallocHost
///     fill(batch.data(), batch.size());                  // ordinary host memory otherwise
///     kt::cuda::copy_async(d_batch, batch.data(), batch.size(), stream);   // truly async
///     KT_CUDA_CHECK(cudaStreamSynchronize(stream));      // before refilling `batch`

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/cuda/cuda_error.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace kt::cuda {

/// `count` elements of T in pinned host memory, uninitialised (T must be trivially copyable:
/// the bytes travel with cudaMemcpy). Move-only; freed with cudaFreeHost. With unified
/// addressing (every 64-bit platform) the memory is usable with every device.
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "kt::cuda::PinnedBuffer: the element type must be trivially copyable");

public:
  /// Empty: no allocation, data() is null.
  PinnedBuffer() = default;

  /// Allocates `count` elements (none, and no CUDA call, for 0). Throws kt::Error naming
  /// cudaMallocHost and the size when the allocation fails (no driver, out of memory).
  explicit PinnedBuffer(std::size_t count) : size_(count) {
    if (count == 0) return;
    void* p = nullptr;
    const cudaError_t e = cudaMallocHost(&p, count * sizeof(T));
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      impl::throw_cuda(e, "cudaMallocHost", __FILE__, __LINE__,
                       ::kt::impl::concat(" (kt::cuda::PinnedBuffer of ", count * sizeof(T),
                                          " bytes)"));
    }
    data_ = static_cast<T*>(p);
  }

  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  /// Frees the memory. cudaFreeHost waits for nothing: copies still reading or writing the
  /// buffer must have been synchronised first. Errors (e.g. after CUDA's own teardown at
  /// exit) are ignored, as a destructor cannot report them.
  ~PinnedBuffer() { reset(); }

  /// Frees the memory now; the buffer becomes empty.
  void reset() noexcept {
    if (data_ != nullptr) {
      (void)cudaFreeHost(data_);
      (void)cudaGetLastError();
    }
    data_ = nullptr;
    size_ = 0;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Copies `count` elements from `src` to `dst` on `stream`, asynchronously: host-to-device,
/// device-to-host or device-to-device, the direction inferred from the pointers (unified
/// addressing, cudaMemcpyDefault). Host memory must be pinned for the copy to be truly
/// asynchronous; pageable memory makes CUDA stage it (and return only once it is read).
/// Nothing happens, and CUDA is not called, when count is 0.
template <class T>
void copy_async(T* dst, const T* src, std::size_t count, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<T>,
                "kt::cuda::copy_async: the element type must be trivially copyable");
  if (count == 0) return;
  KT_CUDA_CHECK(cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyDefault, stream));
}

}  // namespace kt::cuda

#include "kt/core/impl/public_end.hpp"
