#pragma once
// The reduction of a class-index loss (cross-entropy, NLL) on the device, so that a training
// step never waits for the host: one kernel sums the per-row losses of the counted targets,
// counts them, finds targets outside [0, C), and writes the reduced loss and the factor the
// backward pass applies (1 / count for the mean). The host learns of a bad target from the
// device's error record (kt/core/impl/device_errors.hpp); the rows of bad targets count as
// ignored.
//
// One team: thread r sums rows r, r + T, r + 2T, ... in double, then thread 0 adds the T
// partial sums in order — the same operations in the same order on every run, whatever the
// device (T is fixed per device). A loss has one row per sample, so one team is not the limit.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/device_errors.hpp"
#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/work_instance.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace kt::impl {

/// Whether class index c is counted: not ignore_index and in [0, classes).
KOKKOS_INLINE_FUNCTION bool counted_class(std::int64_t c, std::int64_t classes, std::int64_t ignore_index) {
  return c != ignore_index && c >= 0 && c < classes;
}

/// The reduced loss (rank 0) and the backward factor (rank 0: 1 / count for the mean, 1 for
/// the sum) of per-row losses `rows`.
template <class T, class D>
struct ClassLossReduction {
  Tensor<T, D> loss;
  Tensor<compute_t<T>, D> factor;
};

/// Threads of the one team: 256 on a GPU, one on host devices (on the calling thread).
template <class D>
inline constexpr int class_loss_team = is_host_accessible_v<D> ? 1 : 256;

/// One thread's share of the reduction, or (combined in thread order) the whole: the sum of
/// the counted rows in double, their count, the number of bad targets and the first one's row.
struct ClassLossPartial {
  double sum;
  std::int64_t count, bad, first_bad;

  /// Rows r, r + team, r + 2 team, ... of `rows` (as C) with targets `target` (n rows).
  template <class C, class Rows, class Target>
  KOKKOS_INLINE_FUNCTION static ClassLossPartial of_rows(const Rows& rows, const Target& target, std::int64_t n,
                                                         int r, int team, std::int64_t classes,
                                                         std::int64_t ignore_index) {
    ClassLossPartial p{0, 0, 0, n};
    for (std::int64_t i = r; i < n; i += team) {
      const std::int64_t c = target(i);
      if (counted_class(c, classes, ignore_index)) {
        p.sum += static_cast<double>(static_cast<C>(rows(i)));
        ++p.count;
      } else if (c != ignore_index) {
        ++p.bad;
        p.first_bad = i < p.first_bad ? i : p.first_bad;
      }
    }
    return p;
  }
  KOKKOS_INLINE_FUNCTION void add(const ClassLossPartial& q) {
    sum += q.sum;
    count += q.count;
    bad += q.bad;
    first_bad = q.first_bad < first_bad ? q.first_bad : first_bad;
  }
};

/// The kernel of reduce_class_loss; on host devices it raises a bad target's error itself.
template <class T, class D>
void launch_class_loss_reduce(const ClassLossReduction<T, D>& out, const Tensor<T, D>& rows,
                              const Tensor<std::int64_t, D>& target, std::int64_t classes, std::int64_t ignore_index,
                              bool mean, std::int64_t op) {
  using C = compute_t<T>;
  using Exec = typename inline_space<D>::type;
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  using Member = typename Policy::member_type;
  const auto l = rows.view();
  const auto t = target.view();
  const auto loss = out.loss.view();
  const auto factor = out.factor.view();
  DeviceErrorRecord* record = device_error_record<memory_space_t<D>>();
  const std::int64_t n = target.numel();
  const int team = class_loss_team<D>;
  const std::size_t scratch = team * sizeof(ClassLossPartial);
  const Policy policy = Policy(work_instance(Exec()), 1, team).set_scratch_size(0, Kokkos::PerTeam(scratch));
  static const std::string label = "kt::class_loss::reduce";  // made once: a replay allocates nothing
  Kokkos::parallel_for(label, policy, KOKKOS_LAMBDA(const Member& m) {
    const int r = m.team_rank();
    auto* parts = static_cast<ClassLossPartial*>(m.team_scratch(0).get_shmem(scratch));
    parts[r] = ClassLossPartial::of_rows<C>(l, t, n, r, team, classes, ignore_index);
    m.team_barrier();
    if (r != 0) return;
    ClassLossPartial all{0, 0, 0, n};
    for (int q = 0; q < team; ++q) all.add(parts[q]);
    // A mean over no counted target is NaN (0 / 0), as in PyTorch.
    loss(0) = static_cast<T>(mean ? all.sum / static_cast<double>(all.count) : all.sum);
    factor(0) = mean ? static_cast<C>(1.0 / static_cast<double>(all.count)) : C(1);
    if (all.bad > 0 && record->op == 0) {
      record->count = all.bad;
      record->index = all.first_bad;
      record->value = t(all.first_bad);
      record->bound = classes;
      record->op = op;
    }
  });
  if constexpr (is_host_accessible_v<D>) raise_device_errors<memory_space_t<D>>(nullptr);
}

/// Reduces `rows` (N) of targets `target` (N) by mean (mean = true) or sum; records targets
/// outside [0, classes) that are not ignore_index as an error of op `op` (DeviceErrorOps).
/// On host devices that error is raised here, and at every replay of a recorded step.
template <class T, class D>
ClassLossReduction<T, D> reduce_class_loss(const Tensor<T, D>& rows, const Tensor<std::int64_t, D>& target,
                                           std::int64_t classes, std::int64_t ignore_index, bool mean,
                                           std::int64_t op) {
  ClassLossReduction<T, D> out{Tensor<T, D>(Shape{}), Tensor<compute_t<T>, D>(Shape{})};
  if constexpr (is_host_accessible_v<D>) {
    if (HostWork* recording = host_recording<D>()) {
      record_host_work(recording, [=] { launch_class_loss_reduce(out, rows, target, classes, ignore_index, mean, op); });
      return out;
    }
  }
  launch_class_loss_reduce(out, rows, target, classes, ignore_index, mean, op);
  return out;
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the class losses' reduction, for floating losses.
#define KT_ETI_CLASS_LOSS_ONE(T, D, KW)                                    \
  KW kt::impl::ClassLossReduction<T, D> kt::impl::reduce_class_loss<T, D>( \
      const kt::Tensor<T, D>&, const kt::Tensor<std::int64_t, D>&, std::int64_t, std::int64_t, bool, std::int64_t);
#define KT_ETI_CLASS_LOSS(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_CLASS_LOSS_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_LOSS)
KT_ETI_CLASS_LOSS(extern template)
#endif
