#pragma once
// kt's dtypes and devices in DLPack's terms, and the layout check of kt/interop/dlpack.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/tensor/tensor.hpp"

#include <dlpack/dlpack.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// What to_dlpack's DLManagedTensor owns: the tensor (its memory), the shape and strides the
/// DLTensor points to, and the DLManagedTensor itself; its deleter deletes all of it.
template <class T, class D>
struct DLPackContext {
  Tensor<T, D> tensor;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed;
};

/// T's DLPack dtype (one lane).
template <class T>
DLDataType dlpack_dtype() {
  static_assert(is_dtype_v<T>, "kt::to_dlpack / from_dlpack: not a kt dtype");
  DLDataType t{};
  t.code = static_cast<std::uint8_t>(std::is_same_v<T, bfloat16>          ? kDLBfloat
                                     : std::is_floating_point_v<T> || std::is_same_v<T, half> ? kDLFloat
                                     : std::is_signed_v<T>                  ? kDLInt
                                                                            : kDLUInt);
  t.bits = static_cast<std::uint8_t>(8 * sizeof(T));
  t.lanes = 1;
  return t;
}

template <class T>
bool dlpack_same_dtype(const DLDataType& t) {
  const DLDataType want = dlpack_dtype<T>();
  return t.code == want.code && t.bits == want.bits && t.lanes == 1;
}

/// "float32", "int64", ... for a DLPack dtype, as kt and PyTorch name them.
inline std::string dlpack_dtype_str(const DLDataType& t) {
  const char* base = t.code == kDLFloat ? "float" : t.code == kDLBfloat ? "bfloat" : t.code == kDLInt ? "int"
                     : t.code == kDLUInt ? "uint" : t.code == kDLComplex ? "complex" : nullptr;
  std::string s = base ? base + std::to_string(t.bits)
                       : "dtype code " + std::to_string(t.code) + " of " + std::to_string(t.bits) + " bits";
  if (t.lanes != 1) s += " x " + std::to_string(t.lanes) + " lanes";
  return s;
}

/// D's DLPack device: kDLCPU for host devices, kDLCUDA and the GPU this process uses
/// (kt::device_id) for Cuda.
template <class D>
DLDevice dlpack_device() {
  if constexpr (is_host_accessible_v<D>) return DLDevice{kDLCPU, 0};
  else return DLDevice{kDLCUDA, device_id<D>().index};
}

/// "kt::from_dlpack<float32, OpenMP>: ", the start of from_dlpack's errors.
template <class T, class D>
std::string dlpack_where() {
  return std::string("kt::from_dlpack<") + dtype_name<T>() + ", " + device_name<D>() + ">: ";
}

/// Whether memory of DLPack device `d` is D's: host devices read CPU, pinned and managed
/// memory; Cuda reads its own GPU's and managed memory.
template <class D>
bool dlpack_device_ok(const DLDevice& d) {
  if constexpr (is_host_accessible_v<D>) {
    return d.device_type == kDLCPU || d.device_type == kDLCUDAHost || d.device_type == kDLCUDAManaged;
  } else {
    return (d.device_type == kDLCUDA && d.device_id == dlpack_device<D>().device_id) ||
           d.device_type == kDLCUDAManaged;
  }
}

inline std::string dlpack_device_str(const DLDevice& d) {
  switch (d.device_type) {
    case kDLCPU: return "CPU";
    case kDLCUDA: return "CUDA (GPU " + std::to_string(d.device_id) + ")";
    case kDLCUDAHost: return "CUDA pinned host";
    case kDLCUDAManaged: return "CUDA managed";
    default: return "DLPack device type " + std::to_string(static_cast<int>(d.device_type));
  }
}

/// The first dimension whose stride breaks compact row-major order, or -1 (null strides mean
/// compact). Dimensions of extent 1 are skipped: their stride never moves a pointer.
inline int dlpack_noncontiguous_dim(const DLTensor& t) {
  if (t.strides == nullptr) return -1;
  for (int d = 0; d < t.ndim; ++d)
    if (t.shape[d] == 0) return -1;  // no elements: any strides describe them
  std::int64_t expected = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != 1 && t.strides[d] != expected) return d;
    expected *= t.shape[d];
  }
  return -1;
}

inline std::string dlpack_list_str(const std::int64_t* v, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (n == 1 ? ",)" : ")");
}
inline std::string dlpack_shape_str(const DLTensor& t) { return dlpack_list_str(t.shape, t.ndim); }
inline std::string dlpack_strides_str(const DLTensor& t) { return dlpack_list_str(t.strides, t.ndim); }

}  // namespace kt::impl
