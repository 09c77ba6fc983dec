#pragma once
/// \file kt/interop/dlpack.hpp
/// Tensors shared with other frameworks (PyTorch, JAX, CuPy, NumPy) through DLPack, without a
/// copy. Not part of kt/kt.hpp: include it where DLPack is wanted (Debian: libdlpack-dev).
///
///     #include <kt/interop/dlpack.hpp>
///     auto x = kt::randn<float, kt::DefaultDevice>({64, 784}, /*seed=*/0);
///     DLManagedTensor* m = kt::to_dlpack(x);            // put it in a "dltensor" capsule:
///                                                       // torch.utils.dlpack.from_dlpack(capsule)
///     auto y = kt::from_dlpack<float, kt::DefaultDevice>(m);   // back: y shares x's memory
///
/// Lifetimes, as the DLPack contract has them:
/// - `to_dlpack(t)` returns a DLManagedTensor that keeps t's memory alive until its consumer
///   calls `deleter` (once). t itself may go away before that.
/// - `from_dlpack<T, D>(m)` takes m over: the tensor (and every shallow copy and view of it)
///   keeps the producer's memory alive, and m->deleter runs once when the last of them is
///   gone. When it throws kt::Error, m is untouched and still the caller's.
/// - Both sides see each other's writes: it is one block of memory. Order the producer's
///   and kt's work on a GPU yourself (e.g. synchronise the producer's stream first).
///
/// Checked at the boundary, with a kt::Error naming what differs: the dtype (code, bits,
/// lanes 1), the device (host devices take kDLCPU, kDLCUDAHost and kDLCUDAManaged memory;
/// Cuda takes kDLCUDA and kDLCUDAManaged memory of the GPU this process uses), and the
/// layout: kt tensors are dense and row-major, so strides must be the compact row-major ones
/// (any stride is accepted along a dimension of extent 1, as producers write them freely);
/// other strides are refused with the advice to make the tensor contiguous first.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/interop/impl/dlpack_types.hpp"
#include "kt/tensor/tensor.hpp"

#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace kt {

/// A DLPack view of `t` (shape, compact row-major strides, t's device) that keeps t's memory
/// alive until the consumer calls its deleter.
template <class T, class D>
DLManagedTensor* to_dlpack(const Tensor<T, D>& t) {
  KT_REQUIRE(t.defined(), "kt::to_dlpack: the tensor is undefined (default-constructed)");
  auto owned = std::make_unique<impl::DLPackContext<T, D>>(impl::DLPackContext<T, D>{t, {}, {}, {}});
  auto* const context = owned.get();
  const int rank = t.rank();
  context->shape.resize(static_cast<std::size_t>(rank));
  context->strides.resize(static_cast<std::size_t>(rank));
  std::int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    context->shape[static_cast<std::size_t>(d)] = t.size(d);
    context->strides[static_cast<std::size_t>(d)] = stride;
    stride *= t.size(d);
  }
  DLManagedTensor& m = context->managed;
  m.dl_tensor.data = static_cast<void*>(t.data());
  m.dl_tensor.device = impl::dlpack_device<D>();
  m.dl_tensor.ndim = rank;
  m.dl_tensor.dtype = impl::dlpack_dtype<T>();
  m.dl_tensor.shape = context->shape.data();
  m.dl_tensor.strides = context->strides.data();
  m.dl_tensor.byte_offset = 0;
  m.manager_ctx = context;
  m.deleter = [](DLManagedTensor* self) { delete static_cast<impl::DLPackContext<T, D>*>(self->manager_ctx); };
  owned.release();  // the deleter owns it now
  return &m;
}

/// A tensor over the memory of the DLPack tensor `m`, which it takes over (see the file
/// comment for lifetimes and what is checked).
template <class T, class D>
Tensor<T, D> from_dlpack(DLManagedTensor* m) {
  static_assert(is_device_v<D>, "kt::from_dlpack<T, D>: D must be a device (kt::Host, kt::Cuda, ...)");
  KT_REQUIRE(m != nullptr, "kt::from_dlpack: null DLManagedTensor");
  const DLTensor& dl = m->dl_tensor;
  using impl::dlpack_where;  // the messages' "kt::from_dlpack<T, D>: ", built only on failure
  KT_REQUIRE(impl::dlpack_same_dtype<T>(dl.dtype), dlpack_where<T, D>(), "the DLPack tensor holds ",
             impl::dlpack_dtype_str(dl.dtype), ", not ", dtype_name<T>());
  KT_REQUIRE(impl::dlpack_device_ok<D>(dl.device), dlpack_where<T, D>(), "the DLPack tensor is in ",
             impl::dlpack_device_str(dl.device), " memory, which ", device_name<D>(),
             " cannot use; move it there on the producer's side first");
  KT_REQUIRE(dl.ndim >= 0 && (dl.ndim == 0 || dl.shape != nullptr), dlpack_where<T, D>(), "bad rank ", dl.ndim,
             " or null shape");
  for (int d = 0; d < dl.ndim; ++d)
    KT_REQUIRE(dl.shape[d] >= 0, dlpack_where<T, D>(), "negative extent ", dl.shape[d], " in dimension ", d);
  const Shape shape(std::vector<std::int64_t>(dl.shape, dl.shape + dl.ndim));
  const int refused = impl::dlpack_noncontiguous_dim(dl);
  KT_REQUIRE(refused < 0, dlpack_where<T, D>(), "strides ", impl::dlpack_strides_str(dl), " for shape ",
             impl::dlpack_shape_str(dl), " are not row-major contiguous (dimension ", refused,
             "); kt tensors are dense: make it contiguous first (torch: x.contiguous())");
  KT_REQUIRE(dl.data != nullptr || shape.numel() == 0, dlpack_where<T, D>(), "null data for shape ",
             impl::dlpack_shape_str(dl));
  KT_REQUIRE(dl.byte_offset % sizeof(T) == 0, dlpack_where<T, D>(), "byte_offset ", dl.byte_offset,
             " is not a multiple of ", sizeof(T), " bytes");
  T* const data = reinterpret_cast<T*>(static_cast<char*>(dl.data) + dl.byte_offset);
  return Tensor<T, D>::from_blob(data, shape, [m](T*) {
    if (m->deleter) m->deleter(m);
  });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
