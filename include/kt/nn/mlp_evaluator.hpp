#pragma once
/// \file kt/nn/mlp_evaluator.hpp
/// `kt::nn::MLPEvaluator`: a trained MLP evaluated *inside your own Kokkos kernel* — one
/// point per thread, or a team evaluating a batch of points through scratch memory. A small
/// trivially copyable value (raw pointers into a kt::nn::PackedMLP's buffer, the widths and
/// activations in fixed-size arrays): capture it by value in a KOKKOS_LAMBDA. Computes in
/// fp32 with fp32 sums, whatever the stored weights (float, kt::half, kt::bfloat16).
///
///     kt::nn::PackedMLP<float, D> packed(model);   // snapshot of a trained Sequential
///     const auto mlp = packed.evaluator();         // MLPEvaluator<float, 128, 8>
///     Kokkos::parallel_for("my_app::step", Kokkos::RangePolicy<D>(0, n), KOKKOS_LAMBDA(int i) {
///       const float in[2] = {x(i), y(i)};
///       float out[1];
///       mlp(in, out);                              // this thread's point
///       u(i) += dt * out[0];
///     });
///
/// Team-level, for points stored row-major [point][feature] (in: n x in_features(), out:
/// n x out_features()); the team evaluates tiles of points together, so that each weight
/// load serves several points (host) or several threads (GPU):
///
///     using Policy = Kokkos::TeamPolicy<D>;
///     using Scratch = Kokkos::View<float*, typename D::scratch_memory_space, Kokkos::MemoryUnmanaged>;
///     const int per_team = 256;                       // points each team evaluates
///     Policy policy((n + per_team - 1) / per_team, Kokkos::AUTO);
///     policy.set_scratch_size(0, Kokkos::PerTeam(mlp.scratch_bytes(per_team)));
///     Kokkos::parallel_for("my_app::batch", policy, KOKKOS_LAMBDA(const Policy::member_type& team) {
///       const int first = team.league_rank() * per_team, count = std::min(per_team, n - first);
///       Scratch scratch(team.team_scratch(0), mlp.scratch_floats(per_team));
///       mlp(team, in_ptr + first * 2, out_ptr + first, count, scratch.data());
///     });
///
/// Lifetime: the evaluator does not own the weights. It stays valid while the PackedMLP it
/// came from (or a copy of it, which shares the buffer) lives; call it only in kernels of a
/// device that can read that PackedMLP's memory. It is a snapshot: training the model later
/// does not change it — pack again to refresh.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/nn/impl/mlp_kernels.hpp"
#include "kt/nn/impl/mlp_layout.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kt::nn {

/// Evaluates a packed MLP of at most MaxLayers Linear layers of at most MaxWidth outputs
/// each (the two stack buffers of the per-thread call hold MaxWidth floats each; the input
/// width is not limited). W: the stored weights' type (float, kt::half, kt::bfloat16).
template <class W = float, int MaxWidth = 128, int MaxLayers = 8>
class MLPEvaluator {
  static_assert(MaxWidth > 0 && MaxWidth % impl::kMLPPad == 0,
                "kt::nn::MLPEvaluator: MaxWidth must be a positive multiple of 16 (layers are padded to 16 outputs)");
  static_assert(MaxLayers > 0, "kt::nn::MLPEvaluator: MaxLayers must be positive");

public:
  using weight_type = W;
  static constexpr int max_width = MaxWidth;
  static constexpr int max_layers = MaxLayers;

  /// An evaluator of nothing (0 layers); assign one from PackedMLP::evaluator().
  MLPEvaluator() = default;
  /// Built by kt::nn::PackedMLP::evaluator(): `data` is the packed buffer in device memory.
  MLPEvaluator(const W* data, const std::vector<impl::MLPLayer>& layers) : data_(data) {
    KT_REQUIRE(static_cast<int>(layers.size()) <= MaxLayers, "kt::nn::MLPEvaluator: the model has ",
               layers.size(), " Linear layers, more than MaxLayers = ", MaxLayers, "; raise it: evaluator<",
               MaxWidth, ", ", layers.size(), ">()");
    n_layers_ = static_cast<int>(layers.size());
    for (int l = 0; l < n_layers_; ++l) {
      const impl::MLPLayer& layer = layers[static_cast<std::size_t>(l)];
      KT_REQUIRE(layer.out <= MaxWidth, "kt::nn::MLPEvaluator: layer ", l, " (module ", layer.module,
                 " of the Sequential) has ", layer.out, " outputs, more than MaxWidth = ", MaxWidth,
                 "; raise it: evaluator<", layer.ld, ">() (a multiple of 16)");
      in_[l] = layer.in;
      out_[l] = layer.out;
      ld_[l] = layer.ld;
      weight_[l] = layer.weight_offset;
      bias_[l] = layer.bias_offset;
      act_[l] = layer.act;
      if (layer.ld > max_ld_) max_ld_ = layer.ld;
    }
  }

  KOKKOS_INLINE_FUNCTION int layers() const { return n_layers_; }
  KOKKOS_INLINE_FUNCTION int in_features() const { return n_layers_ > 0 ? in_[0] : 0; }
  KOKKOS_INLINE_FUNCTION int out_features() const { return n_layers_ > 0 ? out_[n_layers_ - 1] : 0; }

  /// One point: out[0..out_features()) from in[0..in_features()). Any thread, any kernel of a
  /// device that can read the weights; `in` and `out` may be registers, local arrays or Views'
  /// memory (they must not overlap).
  KOKKOS_INLINE_FUNCTION void operator()(const float* in, float* out) const {
    float buf[2][MaxWidth];
    const float* x = in;
    for (int l = 0; l < n_layers_; ++l) {
      const bool last = l + 1 == n_layers_;
      float* y = last ? out : buf[l & 1];
      // Hidden layers keep their zero-weight padding columns; the last writes out_ only.
      impl::mlp_point_layer(x, in_[l], data_ + weight_[l], ld_[l], data_ + bias_[l], act_[l], y,
                            last ? out_[l] : ld_[l]);
      x = y;
    }
  }

  /// A team evaluates n_points points: in is row-major [n_points][in_features()], out
  /// [n_points][out_features()]; every thread of the team must call it (it synchronises the
  /// team between layers). `scratch`: scratch_floats(n_points) floats of team scratch memory
  /// (see the file comment), not used by the team for anything else during the call.
  template <class Team>
  KOKKOS_INLINE_FUNCTION void operator()(const Team& team, const float* in, float* out, int n_points,
                                         float* scratch) const {
    const int buffer = scratch_floats(n_points) / 2;  // each of the two buffers: tile rows x max_ld_
    for (int t0 = 0; t0 < n_points; t0 += impl::kMLPTile) {
      const int np = n_points - t0 < impl::kMLPTile ? n_points - t0 : impl::kMLPTile;
      const int rows = (np + impl::kMLPRows - 1) / impl::kMLPRows * impl::kMLPRows;  // whole row blocks
      const float* x = in + static_cast<std::int64_t>(t0) * in_[0];
      int ldx = in_[0], x_rows = np;  // the input has np rows: the padding rows re-read the last
      for (int l = 0; l < n_layers_; ++l) {
        const bool last = l + 1 == n_layers_;
        float* y = last ? out + static_cast<std::int64_t>(t0) * out_[l] : scratch + (l & 1) * buffer;
        const int ldy = last ? out_[l] : max_ld_;
        team_layer(team, x, ldx, x_rows, rows, in_[l], data_ + weight_[l], ld_[l], data_ + bias_[l], act_[l], y,
                   ldy, last ? np : rows, last ? out_[l] : ld_[l]);
        team.team_barrier();  // the next layer reads what every thread wrote
        x = y;
        ldx = ldy;
        x_rows = rows;
      }
    }
  }

  /// Floats of team scratch the team-level call needs for n_points points: two tiles of at
  /// most 32 points of the widest layer's activations. A member, not static: it depends on the
  /// packed widths.
  KOKKOS_INLINE_FUNCTION int scratch_floats(int n_points) const {
    if (n_points <= 0) return 0;
    constexpr int R = impl::kMLPHostRows;  // the larger row block of host and GPU
    const int rows = (n_points + R - 1) / R * R;
    return 2 * (rows < impl::kMLPTile ? rows : impl::kMLPTile) * max_ld_;
  }
  /// Bytes for `TeamPolicy::set_scratch_size(level, Kokkos::PerTeam(...))`: scratch_floats
  /// plus 16 bytes of slack for the scratch allocator's alignment.
  KOKKOS_INLINE_FUNCTION std::size_t scratch_bytes(int n_points) const {
    return static_cast<std::size_t>(scratch_floats(n_points)) * sizeof(float) + 16;
  }

private:
  /// One layer for `rows` points of a tile: blocks of kMLPRows points x kMLPCols outputs,
  /// spread over the team's threads. Rows of x at or past x_rows re-read row x_rows - 1 (the
  /// input's padding); only y_rows rows and y_cols columns of y are written.
  template <class Team>
  KOKKOS_INLINE_FUNCTION static void team_layer(const Team& team, const float* x, int ldx, int x_rows, int rows,
                                                int n_in, const W* w, int ld, const W* b, Activation act,
                                                float* y, int ldy, int y_rows, int y_cols) {
    constexpr int R = impl::kMLPRows, C = impl::kMLPCols;
    const int chunks = ld / C;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows / R * chunks), [&](int item) {
      const int r0 = item / chunks * R, j0 = item % chunks * C;
      const float* xr[R];
      for (int r = 0; r < R; ++r) xr[r] = x + static_cast<std::int64_t>(r0 + r < x_rows ? r0 + r : x_rows - 1) * ldx;
      float acc[R][C];
      impl::mlp_tile_block<R, C>(xr, n_in, w + j0, ld, b + j0, acc);
      impl::mlp_activate(act, acc);
      for (int r = 0; r < R; ++r)
        if (r0 + r < y_rows) impl::mlp_store<C>(acc[r], y + static_cast<std::int64_t>(r0 + r) * ldy + j0, y_cols - j0);
    });
  }

  const W* data_ = nullptr;
  int n_layers_ = 0;
  int max_ld_ = 0;
  int in_[MaxLayers] = {};
  int out_[MaxLayers] = {};
  int ld_[MaxLayers] = {};
  std::int64_t weight_[MaxLayers] = {};
  std::int64_t bias_[MaxLayers] = {};
  Activation act_[MaxLayers] = {};
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
