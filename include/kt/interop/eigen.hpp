#pragma once
/// \file kt/interop/eigen.hpp
/// Zero-copy Eigen views of host tensors, and tensors over Eigen's memory. Not part of
/// kt/kt.hpp: include it (and link Eigen3::Eigen) only where Eigen is wanted.
///
///     #include <kt/interop/eigen.hpp>
///     auto a = kt::randn<float, kt::Host>({3, 4}, /*seed=*/0);
///     auto m = kt::as_eigen(a);          // Eigen::Map over a's memory: no copy
///     m(0, 0) = 1.0f;                    // a[0][0] is now 1
///     Eigen::MatrixXf p = m * m.transpose();   // any Eigen expression on kt data
///
///     Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> e(2, 2);
///     auto t = kt::from_eigen(e);        // kt::Tensor<float, kt::Host> over e's memory
///     t.fill_(0.0f);                     // e is now all zeros
///
/// Lifetime rules (neither side keeps the other alive):
/// - `as_eigen(t)`: the Map points into t's storage. It stays valid while t, or any tensor
///   sharing its storage (shallow copies, reshape/slice views), is alive. A temporary that
///   alone owns its memory (`kt::as_eigen(gpu_tensor.host())`) is refused with kt::Error:
///   keep the tensor in a variable first.
/// - `from_eigen(e)`: the tensor borrows e's memory (like `kt::Tensor::from_blob`). e must
///   outlive the tensor and every shallow copy and view of it, and must not be resized while
///   they exist. Borrowed memory is not counted in kt::memory_stats. Temporary Eigen
///   matrices are rejected at compile time; temporary Maps are fine (they own nothing).
/// - Both sides see every write of the other at once: it is one block of memory.

#include "kt/core/impl/public_begin.hpp"

#include "kt/interop/impl/eigen_scalar.hpp"
#include "kt/tensor/tensor.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

namespace kt {

/// The Eigen type kt maps tensors to: a dynamic-size, row-major matrix (kt's layout).
template <class T>
using EigenMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
/// What `kt::as_eigen` returns.
template <class T>
using EigenMap = Eigen::Map<EigenMatrix<T>>;

/// A writable `Eigen::Map<Eigen::Matrix<T, Dynamic, Dynamic, RowMajor>>` over the memory of
/// a host tensor: shape (rows, cols) for rank 2, (n, 1) — a column vector — for rank 1.
/// Waits for pending work on t's device first. Throws kt::Error for other ranks.
///
///     auto x = kt::arange<double, kt::Host>(6).reshape({2, 3});
///     double s = kt::as_eigen(x).sum();     // 15
template <class T, class D>
EigenMap<T> as_eigen(const Tensor<T, D>& t) {
  static_assert(is_host_accessible_v<D>,
                "kt::as_eigen: the tensor lives in device (GPU) memory that the host cannot "
                "read; call .host() first and keep the result in a variable: "
                "auto h = t.host(); auto m = kt::as_eigen(h);");
  static_assert(impl::is_eigen_scalar_v<T>,
                "kt::as_eigen: Eigen has no kt::half / kt::bfloat16 scalar; convert with "
                ".to<float>() first");
  KT_REQUIRE(t.defined(), "kt::as_eigen: the tensor is undefined (default-constructed)");
  KT_REQUIRE(t.rank() == 1 || t.rank() == 2, "kt::as_eigen: needs a rank-1 or rank-2 tensor, got shape ",
             t.shape().str(), "; reshape it first, e.g. t.reshape({rows, -1})");
  D().fence();
  const Eigen::Index rows = static_cast<Eigen::Index>(t.size(0));
  const Eigen::Index cols = t.rank() == 2 ? static_cast<Eigen::Index>(t.size(1)) : 1;
  return EigenMap<T>(t.data(), rows, cols);
}

/// Overload for temporaries: refuses a tensor that alone owns its memory, whose Map would
/// dangle at the end of the statement. A temporary view of a live tensor is fine.
template <class T, class D>
EigenMap<T> as_eigen(Tensor<T, D>&& t) {
  const auto& storage = t.storage();
  KT_REQUIRE(!(storage && storage->owning() && storage.use_count() == 1),
             "kt::as_eigen: the tensor is a temporary that alone owns its memory (shape ",
             t.shape().str(), "), so the Map would dangle; keep it in a variable first: "
             "auto h = t.host(); auto m = kt::as_eigen(h);");
  return as_eigen(static_cast<const Tensor<T, D>&>(t));
}

/// A kt::Tensor<Scalar, D> of shape (rows, cols) over the memory of an Eigen object, without
/// copying. Every Eigen object gives a rank-2 tensor, vectors too ((n, 1) or (1, n));
/// use `.flatten()` for a 1-D tensor. D must be a host device (default kt::Host).
///
/// The object must be row-major (`Eigen::Matrix<T, Dynamic, Dynamic, Eigen::RowMajor>`, a
/// Map of one, or a vector) and dense (a Map with strides or a block of columns throws
/// kt::Error). Eigen's default column-major matrices are rejected at compile time: their
/// memory read row-major is the transpose, which is easy to misuse silently.
///
///     kt::EigenMatrix<float> e = kt::EigenMatrix<float>::Random(3, 4);
///     auto t = kt::from_eigen(e);                      // Tensor<float, kt::Host>, (3, 4)
///     auto u = kt::from_eigen<kt::Serial>(e);          // the same memory, Serial device
///     auto v = kt::from_eigen(kt::EigenMap<float>(ptr, 3, 4));   // temporary Map: fine
template <class D = Host, class E>
auto from_eigen(E&& e) {
  using Object = std::remove_cv_t<std::remove_reference_t<E>>;
  static_assert(std::is_base_of_v<Eigen::DenseBase<Object>, Object>,
                "kt::from_eigen: the argument must be an Eigen matrix, array or Map");
  using T = typename Object::Scalar;
  static_assert(is_device_v<D> && is_host_accessible_v<D>,
                "kt::from_eigen: D must be a host device (kt::Host, kt::Serial, kt::OpenMP); "
                "move the result with .to<Device>() afterwards");
  static_assert(impl::is_eigen_scalar_v<T>,
                "kt::from_eigen: the scalar type must be a kt dtype (float, double, int32_t, "
                "int64_t, uint8_t)");
  constexpr bool direct = (int(Object::Flags) & Eigen::DirectAccessBit) != 0;
  static_assert(direct, "kt::from_eigen: the argument must have its own memory (a Matrix, Array "
                        "or Map), not an expression; evaluate it into a named matrix first");
  static_assert(!(std::is_rvalue_reference_v<E&&> &&
                  std::is_base_of_v<Eigen::PlainObjectBase<Object>, Object>),
                "kt::from_eigen: the argument is a temporary Eigen matrix, destroyed at the end "
                "of the statement; the tensor would dangle. Pass a named matrix");
  static_assert(Object::IsRowMajor || Object::ColsAtCompileTime == 1,
                "kt::from_eigen: the Eigen object is column-major (Eigen's default) but kt "
                "tensors are row-major; use kt::EigenMatrix<T> (Eigen::Matrix<T, Dynamic, "
                "Dynamic, Eigen::RowMajor>), or copy: kt::EigenMatrix<T> r = m;");
  if constexpr (direct) {
    using Pointer = decltype(e.data());
    static_assert(!std::is_const_v<std::remove_pointer_t<Pointer>>,
                  "kt::from_eigen: the Eigen object is read-only (const, or a Map of const) but "
                  "a kt::Tensor is writable; pass a non-const object");
    if constexpr (!std::is_const_v<std::remove_pointer_t<Pointer>>) {
      KT_PROFILE_REGION("kt::from_eigen");
      const auto rows = static_cast<std::int64_t>(e.rows()), cols = static_cast<std::int64_t>(e.cols());
      KT_REQUIRE((cols <= 1 || e.colStride() == 1) && (rows <= 1 || e.rowStride() == cols),
                 "kt::from_eigen: the Eigen object is not dense row-major: a ", rows, " x ", cols,
                 " matrix with row stride ", e.rowStride(), " and column stride ", e.colStride(),
                 " (a dense one has ", cols, " and 1); copy it into a kt::EigenMatrix<T> first");
      return Tensor<T, D>::from_blob(e.data(), Shape{rows, cols});
    } else {
      return Tensor<T, D>();
    }
  } else {
    return Tensor<T, D>();
  }
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
