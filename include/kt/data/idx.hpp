#pragma once
/// \file kt/data/idx.hpp
/// Reads IDX files, the format of MNIST and Fashion-MNIST, plain or gzip-compressed (detected
/// from the file's first bytes). Everything is validated — the magic number and type code,
/// the declared dimensions against the data actually present, the gzip stream — and any
/// problem is a kt::Error naming the file and the byte offset. Never a short tensor, never a
/// silently wrapped element, never an allocation the file's real data does not back (see
/// kt::IdxOptions for the size cap, a required rank and empty tensors).
///
///     auto images = kt::read_idx("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
///     // Tensor<uint8_t, kt::Host> of shape (60000, 28, 28)
///     auto x = kt::read_idx_float(".../train-images-idx3-ubyte.gz");        // float in [0, 1]
///     auto y = kt::read_idx<std::int64_t>(".../train-labels-idx1-ubyte.gz"); // (60000) int64
///     auto z = kt::read_idx(path, kt::IdxOptions().rank(3).max_bytes(std::int64_t{4} << 30));

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/idx_options.hpp"
#include "kt/data/impl/idx_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <string>

namespace kt {

/// The IDX file at `path` as a host tensor of T, shaped as the header declares. Elements
/// are converted from the file's type (uint8, int8, int16, int32, float32, float64) and
/// every conversion is checked: a value T cannot hold (int8 -1 or int16 300 into uint8, a
/// NaN or 2.5 into an integer T, float64 1e300 into float32) is a kt::Error naming the
/// element, never a wrapped or infinite result. uint8 files read into uint8 tensors as they are.
template <class T = std::uint8_t>
Tensor<T, Host> read_idx(const std::string& path, const IdxOptions& options = IdxOptions()) {
  KT_PROFILE_REGION("kt::read_idx");
  static_assert(is_dtype_v<T>, "kt::read_idx<T>: T must be a kt dtype");
  return impl::read_idx<T>(path, 1.0, "kt::read_idx", options);
}

/// The IDX file at `path` as float32, every value multiplied by `scale` (default 1/255: the
/// pixels of a uint8 image file land in [0, 1], as torchvision's ToTensor does). A scaled
/// value beyond float32's range is an error.
inline Tensor<float, Host> read_idx_float(const std::string& path, double scale = 1.0 / 255.0,
                                          const IdxOptions& options = IdxOptions()) {
  KT_PROFILE_REGION("kt::read_idx_float");
  return impl::read_idx<float>(path, scale, "kt::read_idx_float", options);
}

/// read_idx_float with the default scale 1/255 and `options`.
inline Tensor<float, Host> read_idx_float(const std::string& path, const IdxOptions& options) {
  return read_idx_float(path, 1.0 / 255.0, options);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
