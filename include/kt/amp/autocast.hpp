#pragma once
/// \file kt/amp/autocast.hpp
/// `kt::amp::autocast<D>`: inside the guard, matmul and linear (and the layers built on them,
/// nn::Linear) on fp32 Vars of device D run in a 16-bit dtype — bfloat16 by default on host
/// devices, half on Cuda, as PyTorch — with fp32 accumulation, and return fp32. Parameters
/// stay fp32 (master weights); each parameter is cast once per region (cached), and backward
/// runs each op in the precision its forward used, the gradients flowing back to fp32 through
/// the casts. Everything else (losses, softmax, reductions, elementwise ops) runs in fp32.
///
///     for (auto [x, y] : loader) {
///       opt.zero_grad();
///       kt::Var<float> loss;
///       {
///         kt::amp::autocast<D> guard;                  // torch.autocast(device_type, torch.bfloat16)
///         loss = kt::cross_entropy(model(x), y);
///       }
///       scaler.scale(loss).backward();                 // fp16 wants the GradScaler; bf16 does not
///       scaler.step(opt);
///       scaler.update();
///     }
///
/// Per thread and per device type; nestable (an inner `autocast<D> off(false)` turns it off for
/// its scope); the cast cache is dropped when the outermost guard ends. As in PyTorch, wrap the
/// forward pass and the loss, not the backward or the optimizer step (a cached cast is renewed
/// after a backward has freed it, so a guard around a whole loop still sees updated weights).
///
/// Differences from PyTorch, from kt's static types: an op keeps its dtype, so `linear` under
/// autocast returns fp32 (its 16-bit result cast back), not a 16-bit tensor; an activation fused
/// into nn::Linear runs in 16 bits, a separate activation layer in fp32.

#include "kt/core/bfloat16.hpp"
#include "kt/core/device.hpp"
#include "kt/core/half.hpp"
#include "kt/core/impl/autocast_state.hpp"

#include <type_traits>

namespace kt::amp {

/// The default 16-bit dtype of autocast on device D: half on Cuda, bfloat16 on the host.
template <class D>
using autocast_default_t = std::conditional_t<is_cuda_v<D>, half, bfloat16>;

template <class D, class H = autocast_default_t<D>>
class autocast {
  static_assert(std::is_same_v<H, half> || std::is_same_v<H, bfloat16>,
                "kt::amp::autocast<D, H>: H must be kt::half or kt::bfloat16");

public:
  explicit autocast(bool enabled = true) : previous_(impl::autocast_state<D>().dtype) {
    impl::autocast_state<D>().dtype =
        !enabled ? impl::AutocastDtype::None
                 : (std::is_same_v<H, half> ? impl::AutocastDtype::Half : impl::AutocastDtype::BFloat16);
  }
  ~autocast() {
    auto& state = impl::autocast_state<D>();
    state.dtype = previous_;
    if (previous_ == impl::AutocastDtype::None) state.cache.clear();  // the outermost region ended
  }
  autocast(const autocast&) = delete;
  autocast& operator=(const autocast&) = delete;

  /// Whether ops on D run in 16 bits here (`torch.is_autocast_enabled()`).
  static bool is_enabled() { return impl::autocast_state<D>().dtype != impl::AutocastDtype::None; }

private:
  impl::AutocastDtype previous_;
};

}  // namespace kt::amp
