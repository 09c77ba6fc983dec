#pragma once
// NumPy broadcasting for contiguous row-major tensors: the output shape, and per operand the
// strides to walk it with (0 along broadcast dimensions).

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/shape.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kt::impl {

/// The shape `a op b` has under NumPy broadcasting; throws naming both shapes otherwise.
inline Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  const int rank = std::max(a.rank(), b.rank());
  std::vector<std::int64_t> dims(static_cast<std::size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    const int da = d - (rank - a.rank()), db = d - (rank - b.rank());
    const std::int64_t ea = da >= 0 ? a[da] : 1, eb = db >= 0 ? b[db] : 1;
    KT_REQUIRE(ea == eb || ea == 1 || eb == 1, op, ": shapes ", a.str(), " and ", b.str(),
               " cannot be broadcast (dimension ", d, ": ", ea, " vs ", eb, ")");
    dims[static_cast<std::size_t>(d)] = ea == 1 ? eb : ea;
  }
  return Shape(dims);
}

/// Maps a flat index of the output to the flat offsets of two broadcast operands.
struct BroadcastIndex {
  int rank = 0;
  Kokkos::Array<std::int64_t, Shape::max_rank> dims{}, stride_a{}, stride_b{};

  BroadcastIndex() = default;
  BroadcastIndex(const Shape& out, const Shape& a, const Shape& b) : rank(out.rank()) {
    for (int d = 0; d < rank; ++d) {
      dims[d] = out[d];
      stride_a[d] = operand_stride(out, a, d);
      stride_b[d] = operand_stride(out, b, d);
    }
  }

  /// The last dimension's extent (1 for rank 0) and the operands' strides along it (0 or 1).
  std::int64_t inner() const { return rank > 0 ? dims[rank - 1] : 1; }
  std::int64_t inner_stride_a() const { return rank > 0 ? stride_a[rank - 1] : 0; }
  std::int64_t inner_stride_b() const { return rank > 0 ? stride_b[rank - 1] : 0; }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& ia, std::int64_t& ib) const {
    ia = 0;
    ib = 0;
    for (int d = rank - 1; d >= 0; --d) {
      const std::int64_t k = i % dims[d];
      i /= dims[d];
      ia += k * stride_a[d];
      ib += k * stride_b[d];
    }
  }

private:
  static std::int64_t operand_stride(const Shape& out, const Shape& x, int d) {
    const int dx = d - (out.rank() - x.rank());
    return dx < 0 || x[dx] == 1 ? 0 : x.stride(dx);
  }
};

/// The kernel of a broadcast op: body(e, ia, ib) for each of the n output elements e with its
/// operands' offsets. Host devices walk rows of the last dimension: a row's first offsets come
/// from the index, the rest step by the operands' strides along it, so the index's divisions
/// are made once per row, not per element (a [32, 64] + [64] sum took 60x the time of a
/// same-shape one). GPUs: one element per thread.
template <class D, class Body>
void broadcast_for(const D& exec, const char* label, const BroadcastIndex& index, std::int64_t n, const Body& body) {
  if (n == 0) return;
  if constexpr (is_host_accessible_v<D>) {
    const std::int64_t inner = index.inner(), sa = index.inner_stride_a(), sb = index.inner_stride_b();
    parallel_for(exec, label, n / inner, KOKKOS_LAMBDA(std::int64_t r) {
      std::int64_t ia, ib;
      index(r * inner, ia, ib);
      for (std::int64_t j = 0; j < inner; ++j) body(r * inner + j, ia + j * sa, ib + j * sb);
    }, n);
  } else {
    parallel_for(exec, label, n, KOKKOS_LAMBDA(std::int64_t e) {
      std::int64_t ia, ib;
      index(e, ia, ib);
      body(e, ia, ib);
    });
  }
}

}  // namespace kt::impl
