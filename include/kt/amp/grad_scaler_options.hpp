#pragma once
/// \file kt/amp/grad_scaler_options.hpp
/// kt::amp::GradScaler's options (`torch.amp.GradScaler`'s arguments, PyTorch's defaults) and
/// its state (`scaler.state_dict()`'s fields).

#include <cstdint>

namespace kt::amp {

class GradScalerOptions {
public:
  GradScalerOptions& init_scale(double v) { init_scale_ = v; return *this; }
  GradScalerOptions& growth_factor(double v) { growth_factor_ = v; return *this; }
  GradScalerOptions& backoff_factor(double v) { backoff_factor_ = v; return *this; }
  GradScalerOptions& growth_interval(std::int64_t v) { growth_interval_ = v; return *this; }
  /// A disabled scaler passes everything through: scale() returns the loss, step() steps.
  GradScalerOptions& enabled(bool v) { enabled_ = v; return *this; }
  double init_scale() const { return init_scale_; }
  double growth_factor() const { return growth_factor_; }
  double backoff_factor() const { return backoff_factor_; }
  std::int64_t growth_interval() const { return growth_interval_; }
  bool enabled() const { return enabled_; }

private:
  double init_scale_ = 65536.0, growth_factor_ = 2.0, backoff_factor_ = 0.5;
  std::int64_t growth_interval_ = 2000;
  bool enabled_ = true;
};

/// `scaler.state_dict()` in PyTorch's fields.
struct GradScalerState {
  double scale = 65536.0, growth_factor = 2.0, backoff_factor = 0.5;
  std::int64_t growth_interval = 2000, growth_tracker = 0;
};

}  // namespace kt::amp
