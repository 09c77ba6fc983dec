#pragma once
// The element passes of kt/tensor/linear.hpp: the forward epilogue y = act(y + b) and the
// backward pass dz = dy ⊙ act'(z) fused with the bias gradient db = Σ_rows dz. `Act` is an
// activation functor of kt/tensor/impl/ops.hpp (value and derivative written once there).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/float16.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/impl/with_activation.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kt::impl {

/// The one shape check of the Linear path: x (N, in), w (out, in), b (out) or undefined.
template <class T, class D>
void check_linear(const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b) {
  static_assert(is_floating_dtype_v<T>, "kt::linear: needs a floating dtype");
  KT_REQUIRE(x.defined() && w.defined(), "kt::linear: x and w must be defined tensors");
  KT_REQUIRE(x.rank() == 2 && w.rank() == 2, "kt::linear: x and w must be 2-D, got ", x.shape().str(),
             " and ", w.shape().str());
  KT_REQUIRE(x.size(1) == w.size(1), "kt::linear: x has ", x.size(1), " features but w expects ",
             w.size(1), ": x ", x.shape().str(), ", w ", w.shape().str());
  KT_REQUIRE(!b.defined() || (b.rank() == 1 && b.size(0) == w.size(0)), "kt::linear: bias of shape ",
             b.defined() ? b.shape().str() : std::string(), " does not match ", w.size(0), " outputs");
}

/// True for devices whose kernels run on the host (Serial, OpenMP): they get the row- and
/// column-block loops below; other devices (Cuda) a one-element / one-column-per-thread form.
template <class D>
inline constexpr bool linear_runs_on_host_v = Kokkos::SpaceAccessibility<D, Kokkos::HostSpace>::accessible;

/// Elements of a 16-bit row that the host epilogues stage at a time; also the backward
/// epilogue's column block (64 floats, a few cache lines per row).
inline constexpr std::int64_t linear_stage = 64;

/// n 16-bit values to their compute type, and back (rounded), out of line: the host epilogues
/// stage 16-bit rows through float buffers with these, so each activation's loop is the float
/// one and the (vectorised, branch-free) conversions are compiled once per dtype rather than
/// once per activation and flag combination (5x the float loops' code). The values computed
/// are the same: each element is converted once each way, as in the unstaged loops.
template <class T>
KOKKOS_INLINE_FUNCTION __attribute__((noinline)) void linear_widen(const T* x, compute_t<T>* y, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) y[j] = static_cast<compute_t<T>>(x[j]);
}
template <class T>
KOKKOS_INLINE_FUNCTION __attribute__((noinline)) void linear_narrow(const compute_t<T>* x, T* y, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) y[j] = static_cast<T>(x[j]);
}

/// One row of the forward epilogue, the flags as template arguments so the loop has no
/// condition left and vectorises; 16-bit rows staged through float buffers.
template <class Act, bool Bias, bool Keep, class T>
KOKKOS_INLINE_FUNCTION void linear_epilogue_row(T* out, const T* bias, T* z, std::int64_t cols) {
  using C = compute_t<T>;
  if constexpr (is_float16<T>::value) {
    C v[linear_stage], b[linear_stage];
    for (std::int64_t j0 = 0; j0 < cols; j0 += linear_stage) {
      const std::int64_t w = cols - j0 < linear_stage ? cols - j0 : linear_stage;
      linear_widen(out + j0, v, w);
      if constexpr (Bias) {
        linear_widen(bias + j0, b, w);
        for (std::int64_t j = 0; j < w; ++j) v[j] += b[j];
      }
      if constexpr (Keep) linear_narrow(v, z + j0, w);
      for (std::int64_t j = 0; j < w; ++j) v[j] = Act{}(v[j]);
      linear_narrow(v, out + j0, w);
    }
  } else {
    for (std::int64_t j = 0; j < cols; ++j) {
      C v = static_cast<C>(out[j]);
      if constexpr (Bias) v += static_cast<C>(bias[j]);
      if constexpr (Keep) z[j] = static_cast<T>(v);
      out[j] = static_cast<T>(Act{}(v));
    }
  }
}

/// y = act(y + b) in place (b optional); keeps z = y + b in `pre` when it is defined, which
/// only an activation whose derivative reads its input may ask (Act::uses_input, as
/// linear_forward does): the host builds its keeping loops for those activations alone. Host:
/// rows in parallel, the bias / keep flags tested once per row. Other devices: one element per
/// thread. (A template over the activation functor, not a generic lambda wrapping a
/// KOKKOS_LAMBDA, which nvcc rejects.)
template <class Act, class T, class D>
void linear_epilogue(const D& exec, const Tensor<T, D>& y, const Tensor<T, D>& b, const Tensor<T, D>& pre) {
  KT_REQUIRE(Act::uses_input || !pre.defined(), "kt::impl::linear_epilogue: the pre-activation is kept only for "
             "activations whose derivative reads it");
  if (y.numel() == 0 || (std::is_same_v<Act, op::Identity> && !b.defined() && !pre.defined())) return;
  const auto out = y.view();
  const auto bias = b.defined() ? b.view() : typename Tensor<T, D>::view_type();
  const auto z = pre.defined() ? pre.view() : typename Tensor<T, D>::view_type();
  const bool has_bias = b.defined(), keep = pre.defined();
  const std::int64_t rows = y.size(0), cols = y.size(1);
  if constexpr (linear_runs_on_host_v<D>) {
    parallel_for(exec, "kt::linear::epilogue", rows, KOKKOS_LAMBDA(std::int64_t i) {
      T* o = out.data() + i * cols;
      const T* bj = has_bias ? bias.data() : nullptr;
      T* zi = keep ? z.data() + i * cols : nullptr;
      if constexpr (Act::uses_input) {
        if (keep) {
          if (has_bias) linear_epilogue_row<Act, true, true>(o, bj, zi, cols);
          else linear_epilogue_row<Act, false, true>(o, bj, zi, cols);
          return;
        }
      }
      if (has_bias) linear_epilogue_row<Act, true, false>(o, bj, zi, cols);
      else linear_epilogue_row<Act, false, false>(o, bj, zi, cols);
    }, rows * cols);
  } else {
    using C = compute_t<T>;
    parallel_for(exec, "kt::linear::epilogue", rows * cols, KOKKOS_LAMBDA(std::int64_t e) {
      C v = static_cast<C>(out(e));
      if (has_bias) v += static_cast<C>(bias(e % cols));
      if (keep) z(e) = static_cast<T>(v);
      out(e) = static_cast<T>(Act{}(v));
    });
  }
}

/// Row groups per 32 columns in the GPU backward epilogue (a team of 32 x 16 threads).
inline constexpr int linear_grad_row_groups = 16;

/// The host backward epilogue: each thread takes a block of linear_stage columns and walks all
/// rows in order (contiguous, vectorised rows; per-column sums in registers/L1); a 16-bit row
/// is staged through float buffers, only the input the derivative reads (x or y) widened.
template <class Act, class C, class D, class View>
void linear_grad_epilogue_host(const D& exec, const View& g, const View& y, const View& z, const View& out,
                               const View& bias, bool has_bias, std::int64_t rows, std::int64_t cols) {
  using T = typename View::value_type;
  constexpr std::int64_t block = linear_stage;
  const std::int64_t blocks = (cols + block - 1) / block;
  parallel_for(exec, "kt::linear::backward_epilogue", blocks, KOKKOS_LAMBDA(std::int64_t q) {
    const std::int64_t j0 = q * block;
    const std::int64_t width = cols - j0 < block ? cols - j0 : block;
    C sum[block];
    for (std::int64_t j = 0; j < width; ++j) sum[j] = C(0);
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t e0 = i * cols + j0;
      const T* gi = g.data() + e0;
      const T* yi = y.data() + e0;
      const T* zi = z.data() + e0;
      T* oi = out.data() + e0;
      if constexpr (is_float16<T>::value) {
        C gs[block], vs[block];
        linear_widen(gi, gs, width);
        linear_widen(Act::uses_input ? zi : yi, vs, width);
        for (std::int64_t j = 0; j < width; ++j) {
          const C d = Act{}.grad(gs[j], vs[j], vs[j]);
          gs[j] = d;
          sum[j] += d;
        }
        linear_narrow(gs, oi, width);
      } else {
        for (std::int64_t j = 0; j < width; ++j) {
          const C d = Act{}.grad(static_cast<C>(gi[j]), static_cast<C>(zi[j]), static_cast<C>(yi[j]));
          oi[j] = static_cast<T>(d);
          sum[j] += d;
        }
      }
    }
    if (!has_bias) return;
    T* const db = bias.data() + j0;  // nvcc: a lambda must not first capture inside `if constexpr`
    if constexpr (is_float16<T>::value) linear_narrow(sum, db, width);
    else
      for (std::int64_t j = 0; j < width; ++j) db[j] = static_cast<T>(sum[j]);
  }, rows * cols);
}

/// The GPU backward epilogue: a team per 32 columns. Lane l of row group r (of
/// linear_grad_row_groups) takes column j0 + l of rows r, r + R, r + 2R, ... — a warp reads 32
/// adjacent elements of a row — and the R partial sums of a column are added in order r = 0,
/// 1, ... by one thread: the same order on every run. (One thread per column walking all rows
/// left a 512-column layer 16 warps for the whole GPU and each of them a chain of `rows`
/// loads: docs/performance.md, "GPU training step".)
template <class Act, class C, class D, class View>
void linear_grad_epilogue_team(const D& exec, const View& g, const View& y, const View& z, const View& out,
                               const View& bias, bool has_bias, std::int64_t rows, std::int64_t cols) {
  using T = typename View::value_type;
  using Policy = Kokkos::TeamPolicy<D, Kokkos::IndexType<std::int64_t>>;
  using Member = typename Policy::member_type;
  constexpr int lanes = 32, groups = linear_grad_row_groups;
  const Policy policy = Policy(work_instance(exec), (cols + lanes - 1) / lanes, lanes * groups)
                            .set_scratch_size(0, Kokkos::PerTeam(lanes * groups * sizeof(C)));
  Kokkos::parallel_for("kt::linear::backward_epilogue", policy, KOKKOS_LAMBDA(const Member& m) {
    C* partial = static_cast<C*>(m.team_scratch(0).get_shmem(lanes * groups * sizeof(C)));
    const int lane = m.team_rank() % lanes, group = m.team_rank() / lanes;
    const std::int64_t j = m.league_rank() * lanes + lane;
    C sum = C(0);
    if (j < cols)
      for (std::int64_t i = group; i < rows; i += groups) {
        const std::int64_t e = i * cols + j;
        const C d = Act{}.grad(static_cast<C>(g(e)), static_cast<C>(z(e)), static_cast<C>(y(e)));
        out(e) = static_cast<T>(d);
        sum += d;
      }
    partial[group * lanes + lane] = sum;
    m.team_barrier();
    if (group == 0 && j < cols && has_bias) {
      C total = C(0);
      for (int r = 0; r < groups; ++r) total += partial[r * lanes + lane];
      bias(j) = static_cast<T>(total);
    }
  });
}

/// dz = dy ⊙ act'(z) and, when db is defined, db = Σ_rows dz. Every column's bias gradient is
/// summed in an order fixed by the shape, so db is the same at any thread count and on every
/// run (host and GPU kernels above). `pre` is read only by activations whose derivative needs
/// the input (GELU); the others use the output y.
template <class Act, class T, class D>
void linear_grad_epilogue_kernel(const D& exec, const Tensor<T, D>& dy, const Tensor<T, D>& y_out,
                                 const Tensor<T, D>& pre, const Tensor<T, D>& dz, const Tensor<T, D>& db) {
  using C = compute_t<T>;
  using View = typename Tensor<T, D>::view_type;
  const View y = y_out.view();
  const View z = pre.defined() ? pre.view() : y;
  const View bias = db.defined() ? db.view() : View();
  const std::int64_t rows = dy.size(0), cols = dy.size(1);
  if constexpr (linear_runs_on_host_v<D>)
    linear_grad_epilogue_host<Act, C>(exec, dy.view(), y, z, dz.view(), bias, db.defined(), rows, cols);
  else
    linear_grad_epilogue_team<Act, C>(exec, dy.view(), y, z, dz.view(), bias, db.defined(), rows, cols);
}

/// The backward epilogue for an activation chosen at run time; `pre` must be defined for
/// activations whose derivative reads the input (GELU).
template <class T, class D>
void linear_grad_epilogue(const D& exec, const Tensor<T, D>& dy, const Tensor<T, D>& y_out, const Tensor<T, D>& pre,
                          Activation act, const Tensor<T, D>& dz, const Tensor<T, D>& db) {
  with_activation(act, [&](auto a) {
    using Act = decltype(a);
    KT_REQUIRE(!Act::uses_input || pre.defined(), "kt::linear_backward: ", to_string(act),
               " needs the pre-activation kept by kt::linear_forward");
    linear_grad_epilogue_kernel<Act>(exec, dy, y_out, pre, dz, db);
  });
}

}  // namespace kt::impl
