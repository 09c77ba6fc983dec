#pragma once
// The reduction engine behind kt/tensor/reduce.hpp. A tensor is viewed as (outer, n, inner)
// and reduced along n. Results do not depend on the device's thread count: n is cut into
// fixed chunks of `reduce_chunk` elements, each chunk is reduced sequentially by one thread
// into a partial, and the partials (outer, chunks, inner) are reduced the same way until at
// most one chunk is left. The order of every addition is therefore fixed by the shape alone,
// so Serial and OpenMP at any thread count give bit-identical results, and a GPU performs the
// same operations in the same order (unlike a plain Kokkos::parallel_reduce, whose
// combination tree follows the thread count).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/stream_events.hpp"
#include "kt/core/impl/sum_acc.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/storage.hpp"
#include "kt/tensor/impl/view_type.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace kt::impl {

/// Elements one thread reduces sequentially per pass; part of the result's definition.
inline constexpr std::int64_t reduce_chunk = 4096;

/// The dtype `kt::sum` returns: int64 for integer inputs (as PyTorch), T otherwise.
template <class T>
using sum_result_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, T>;

/// Adds values in sum_acc_t<T>.
template <class T>
struct SumReducer {
  using acc_type = sum_acc_t<T>;
  KOKKOS_INLINE_FUNCTION acc_type init() const { return acc_type(0); }
  KOKKOS_INLINE_FUNCTION void accumulate(acc_type& a, const T& x, std::int64_t) const {
    a += static_cast<acc_type>(static_cast<compute_t<T>>(x));
  }
  KOKKOS_INLINE_FUNCTION void combine(acc_type& a, const acc_type& b) const { a += b; }
};

/// A value and its position along the reduced dimension (-1: nothing seen yet).
template <class C>
struct ValueIndex {
  C value;
  std::int64_t index;
};

template <class C>
KOKKOS_INLINE_FUNCTION bool is_nan_value(const C& x) {
  if constexpr (std::is_floating_point_v<C>) return x != x;
  else return false;
}

/// Keeps the extreme value (the largest when IsMax, else the smallest) and the position of
/// its first occurrence; a NaN beats every number and the first NaN is kept (PyTorch).
/// `combine(a, b)` requires b to come after a along the dimension.
template <class T, bool IsMax>
struct ExtremeReducer {
  using C = compute_t<T>;
  using acc_type = ValueIndex<C>;
  KOKKOS_INLINE_FUNCTION acc_type init() const { return acc_type{C(0), -1}; }
  KOKKOS_INLINE_FUNCTION void accumulate(acc_type& a, const T& x, std::int64_t k) const {
    combine(a, acc_type{static_cast<C>(x), k});
  }
  KOKKOS_INLINE_FUNCTION void combine(acc_type& a, const acc_type& b) const {
    if (b.index < 0 || (a.index >= 0 && is_nan_value(a.value))) return;
    if (a.index < 0 || is_nan_value(b.value) || (IsMax ? b.value > a.value : b.value < a.value)) a = b;
  }
};

// Final conversions from an accumulator to the result dtype R.
template <class R>
struct FinishValue {  // a sum, or the value of a ValueIndex
  template <class A>
  KOKKOS_INLINE_FUNCTION R operator()(const A& a) const {
    if constexpr (std::is_arithmetic_v<A>) return static_cast<R>(a);
    else return static_cast<R>(a.value);
  }
};
template <class R, class A>
struct FinishMean {
  A count = A(0);  // 0 for an empty reduction: 0 / 0 is NaN, as torch.mean of nothing
  KOKKOS_INLINE_FUNCTION R operator()(const A& a) const { return static_cast<R>(a / count); }
};
struct FinishIndex {
  template <class A>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const A& a) const { return a.index; }
};

/// The Finish functor of a reduction of n elements per result (only a mean needs n).
template <class Finish>
Finish with_count(const Finish& finish, std::int64_t) {
  return finish;
}
template <class R, class A>
FinishMean<R, A> with_count(const FinishMean<R, A>&, std::int64_t n) {
  return FinishMean<R, A>{static_cast<A>(n)};
}

// Where a pass reads from: the input elements or an earlier pass's partials.
template <class Red, class T, class MemSpace>
struct LoadInput {
  Red red;
  view_t<const T, 1, MemSpace> x;
  KOKKOS_INLINE_FUNCTION void operator()(typename Red::acc_type& a, std::int64_t flat, std::int64_t k) const {
    red.accumulate(a, x(flat), k);
  }
};
template <class Red, class MemSpace>
struct LoadPartial {
  Red red;
  view_t<const typename Red::acc_type, 1, MemSpace> p;
  KOKKOS_INLINE_FUNCTION void operator()(typename Red::acc_type& a, std::int64_t flat, std::int64_t) const {
    red.combine(a, p(flat));
  }
};
// Where a pass writes to: partials, or the result through a Finish functor.
template <class A, class MemSpace>
struct StorePartial {
  view_t<A, 1, MemSpace> p;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, const A& a) const { p(j) = a; }
};
template <class R, class Finish, class MemSpace>
struct StoreResult {
  view_t<R, 1, MemSpace> out;
  Finish finish;
  template <class A>
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, const A& a) const { out(j) = finish(a); }
};

/// One pass: for each (o, c, i) of (outer, ceil(n / chunk), inner), reduces elements
/// k = c*chunk .. min(n, (c+1)*chunk) - 1 of row (o, :, i) in order and stores at (o, c, i).
template <class D, class Red, class Load, class Store>
void reduce_pass(const D& exec, const std::string& label, std::int64_t outer, std::int64_t n, std::int64_t inner,
                 std::int64_t chunk, Red red, Load load, Store store) {
  const std::int64_t chunks = n > chunk ? (n + chunk - 1) / chunk : 1;
  parallel_for(
      exec, label.c_str(), outer * chunks * inner,
      KOKKOS_LAMBDA(std::int64_t j) {
        const std::int64_t i = j % inner, c = (j / inner) % chunks, o = j / (inner * chunks);
        const std::int64_t begin = c * chunk, end = begin + chunk < n ? begin + chunk : n;
        const std::int64_t base = o * n * inner + i;
        auto a = red.init();
        for (std::int64_t k = begin; k < end; ++k) load(a, base + k * inner, k);
        store(j, a);
      },
      outer * n * inner);
}

/// Reduces `t`, seen as (outer, n, inner), along n into a new tensor of `out_shape`
/// (outer * inner elements) of dtype R.
template <class R, class Red, class Finish, class T, class D>
Tensor<R, D> reduce(const D& exec, const char* op, const Tensor<T, D>& t, std::int64_t outer, std::int64_t n,
                    std::int64_t inner, const Shape& out_shape, Red red, Finish finish) {
  using M = memory_space_t<D>;
  using A = typename Red::acc_type;
  Tensor<R, D> out(out_shape, exec);
  if (out.numel() == 0) return out;
  const StoreResult<R, Finish, M> result{out.view(), with_count(finish, n)};
  const LoadInput<Red, T, M> input{red, t.view()};
  if (n <= reduce_chunk) {
    reduce_pass(exec, op, outer, n, inner, n, red, input, result);
    return out;
  }
  // Partials live in kt's allocator (counted in kt::memory_stats) until the final pass.
  using Block = std::shared_ptr<Storage<M>>;
  const auto allocate = [&exec](std::int64_t count) {
    return Storage<M>::allocate(static_cast<std::size_t>(count) * sizeof(A), "kt::reduce partials",
                                stream_id(exec));
  };
  const auto store = [](const Block& b, std::int64_t count) {
    return StorePartial<A, M>{view_t<A, 1, M>(static_cast<A*>(b->data()), static_cast<std::size_t>(count))};
  };
  const auto load = [red](const Block& b, std::int64_t count) {
    return LoadPartial<Red, M>{
        red, view_t<const A, 1, M>(static_cast<const A*>(b->data()), static_cast<std::size_t>(count))};
  };
  const std::string label = std::string(op) + " (partials)";
  std::int64_t chunks = (n + reduce_chunk - 1) / reduce_chunk;
  Block src = allocate(outer * chunks * inner);
  reduce_pass(exec, label, outer, n, inner, reduce_chunk, red, input, store(src, outer * chunks * inner));
  for (n = chunks; n > reduce_chunk; n = chunks) {
    chunks = (n + reduce_chunk - 1) / reduce_chunk;
    Block dst = allocate(outer * chunks * inner);
    reduce_pass(exec, label, outer, n, inner, reduce_chunk, red, load(src, outer * n * inner),
                   store(dst, outer * chunks * inner));
    src = std::move(dst);  // freed on exec's stream, whose later work runs after this pass
  }
  reduce_pass(exec, op, outer, n, inner, n, red, load(src, outer * n * inner), result);
  return out;
}

/// The dimension `dim` (negative counts from the back) of a reduction; a rank-0 tensor takes
/// dim 0 or -1 like PyTorch.
inline int normalize_reduce_dim(const char* op, const Shape& shape, int dim) {
  const int rank = shape.rank() > 0 ? shape.rank() : 1;
  const int d = dim < 0 ? dim + rank : dim;
  KT_REQUIRE(d >= 0 && d < rank, op, ": dimension ", dim, " is out of range for shape ", shape.str(),
             " (expected a dimension in [", -rank, ", ", rank - 1, "])");
  return d;
}

/// Over all elements (rank-0 result) or along `dim`. RequireNonEmpty: max/min/argmax/argmin.
template <class R, bool RequireNonEmpty, class Red, class Finish, class T, class D>
Tensor<R, D> reduce_all(const D& exec, const char* op, const Tensor<T, D>& t, Red red, Finish finish) {
  KT_REQUIRE(t.defined(), op, ": the input is an undefined tensor");
  KT_REQUIRE(!RequireNonEmpty || t.numel() > 0, op, ": cannot reduce an empty tensor of shape ",
             t.shape().str(), "; the result would have no value");
  return reduce<R>(exec, op, t, 1, t.numel(), 1, Shape{}, red, finish);
}

template <class R, bool RequireNonEmpty, class Red, class Finish, class T, class D>
Tensor<R, D> reduce_dim(const D& exec, const char* op, const Tensor<T, D>& t, int dim, bool keepdim, Red red,
                        Finish finish) {
  KT_REQUIRE(t.defined(), op, ": the input is an undefined tensor");
  const Shape& s = t.shape();
  const int d = normalize_reduce_dim(op, s, dim);
  if (s.rank() == 0) return reduce<R>(exec, op, t, 1, 1, 1, Shape{}, red, finish);
  const std::int64_t n = s[d];
  KT_REQUIRE(!RequireNonEmpty || n > 0, op, ": cannot reduce an empty tensor over dimension ", dim,
             " of size 0 (shape ", s.str(), ")");
  std::int64_t outer = 1, inner = 1;
  for (int k = 0; k < d; ++k) outer *= s[k];
  for (int k = d + 1; k < s.rank(); ++k) inner *= s[k];
  return reduce<R>(exec, op, t, outer, n, inner, keepdim ? s.with(d, 1) : s.without(d), red, finish);
}

/// max / min / argmax / argmin over all elements: the extreme's value or (Index) position.
template <class R, bool IsMax, bool Index, class T, class D>
Tensor<R, D> extreme(const D& exec, const char* op, const Tensor<T, D>& t) {
  KT_PROFILE_REGION(op);
  if constexpr (Index) return reduce_all<R, true>(exec, op, t, ExtremeReducer<T, IsMax>{}, FinishIndex{});
  else return reduce_all<R, true>(exec, op, t, ExtremeReducer<T, IsMax>{}, FinishValue<R>{});
}

/// The same along `dim`.
template <class R, bool IsMax, bool Index, class T, class D>
Tensor<R, D> extreme(const D& exec, const char* op, const Tensor<T, D>& t, int dim, bool keepdim) {
  KT_PROFILE_REGION(op);
  if constexpr (Index) return reduce_dim<R, true>(exec, op, t, dim, keepdim, ExtremeReducer<T, IsMax>{}, FinishIndex{});
  else return reduce_dim<R, true>(exec, op, t, dim, keepdim, ExtremeReducer<T, IsMax>{}, FinishValue<R>{});
}

}  // namespace kt::impl
