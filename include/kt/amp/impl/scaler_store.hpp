#pragma once
// The numbers of a GradScaler that change as it runs, kept in the memory of the device it
// scales for, so that a step (scale, unscale, the optimizer's skip, update) never makes the
// host wait: the scale, its reciprocal and the growth tracker (doubles: the tracker stays
// below 2^53), the scale as a float (what an fp32 loss is multiplied by), the iteration's
// Inf/NaN flag, and each optimizer's flag of this iteration. The host reads them only when
// asked (get_scale, state_dict, GradScaler::step's answer). GradScaler itself is not a
// template: it makes the store of the first device it is used on (ScalerStore<D>) and reaches
// it through ScalerStoreBase.

#include "kt/core/impl/internal.hpp"

#include "kt/amp/grad_scaler_options.hpp"
#include "kt/core/device.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace kt::impl {

class ScalerStoreBase {
public:
  virtual ~ScalerStoreBase() = default;
  /// The device's name, for errors.
  virtual std::string device() const = 0;
  /// The scale and the growth tracker (the host waits for the device).
  virtual std::pair<double, std::int64_t> read() const = 0;
  virtual void write(double scale, std::int64_t growth_tracker) = 0;
  /// update()'s rule on the device, then a new iteration (flags cleared).
  virtual void update(const amp::GradScalerState& hyper) = 0;
  /// A deep copy (a copied GradScaler scales on its own).
  virtual std::unique_ptr<ScalerStoreBase> clone() const = 0;
};

template <class D>
class ScalerStore final : public ScalerStoreBase {
public:
  enum Slot { scale_slot, tracker_slot, inv_scale_slot };

  ScalerStore(double scale, std::int64_t growth_tracker) { write(scale, growth_tracker); }

  std::string device() const override { return device_name<D>(); }

  std::unique_ptr<ScalerStoreBase> clone() const override {
    auto copy = std::make_unique<ScalerStore>(*this);
    copy->numbers_ = numbers_.clone();
    copy->scale_f_ = scale_f_.clone();
    copy->any_found_ = any_found_.clone();
    for (auto& kv : copy->found_) kv.second = kv.second.clone();
    return copy;
  }

  std::pair<double, std::int64_t> read() const override {
    const auto v = numbers_.to_vector();
    return {v[scale_slot], static_cast<std::int64_t>(v[tracker_slot])};
  }

  void write(double scale, std::int64_t growth_tracker) override {
    numbers_.slice(scale_slot, scale_slot + 1).fill_(scale);
    numbers_.slice(tracker_slot, tracker_slot + 1).fill_(static_cast<double>(growth_tracker));
    numbers_.slice(inv_scale_slot, inv_scale_slot + 1).fill_(1.0 / scale);
    scale_f_.fill_(static_cast<float>(scale));
    any_found_.fill_(0);
  }

  /// PyTorch's rule: × backoff_factor after an Inf/NaN (the tracker restarts); × growth_factor
  /// after growth_interval clean steps in a row, only to a finite scale.
  void update(const amp::GradScalerState& h) override {
    double* n = numbers_.data();
    float* f = scale_f_.data();
    std::int32_t* any = any_found_.data();
    parallel_for(D(), "kt::amp::GradScaler::update", 1, KOKKOS_LAMBDA(std::int64_t) {
      double scale = n[scale_slot], tracker = n[tracker_slot];
      if (*any != 0) {
        scale *= h.backoff_factor;
        tracker = 0;
      } else if ((tracker += 1) == static_cast<double>(h.growth_interval)) {
        if (op::IsFinite()(scale * h.growth_factor)) scale *= h.growth_factor;
        tracker = 0;
      }
      n[scale_slot] = scale;
      n[tracker_slot] = tracker;
      n[inv_scale_slot] = 1.0 / scale;
      *f = static_cast<float>(scale);
      *any = 0;
    });
    found_.clear();
  }

  /// The scale as a T scalar tensor: the float copy for fp32 losses, else a cast.
  template <class T>
  Tensor<T, D> scale_as() const {
    if constexpr (std::is_same_v<T, float>) {
      return scale_f_;
    } else {
      Tensor<T, D> out{Shape{}};
      T* o = out.data();
      const double* n = numbers_.data();
      parallel_for(D(), "kt::amp::GradScaler::scale", 1, KOKKOS_LAMBDA(std::int64_t) { *o = static_cast<T>(n[0]); });
      return out;
    }
  }

  const double* inv_scale() const { return numbers_.data() + inv_scale_slot; }
  std::int32_t* any_found() const { return any_found_.data(); }

  /// The Inf/NaN flag of `optimizer` in this iteration (zero until an unscale finds one).
  const Tensor<std::int32_t, D>& found(const void* optimizer) {
    auto it = found_.find(optimizer);
    if (it == found_.end()) it = found_.emplace(optimizer, zeros<std::int32_t, D>(Shape{})).first;
    return it->second;
  }

private:
  Tensor<double, D> numbers_{Shape{3}};
  Tensor<float, D> scale_f_{Shape{}};
  Tensor<std::int32_t, D> any_found_{Shape{}};
  std::map<const void*, Tensor<std::int32_t, D>> found_;
};

}  // namespace kt::impl
