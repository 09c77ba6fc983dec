#pragma once
/// \file kt/amp/autocast.hpp
/// `kt::amp::autocast<D>` (`torch.autocast`): inside the guard, ops on fp32 Vars of device D
/// follow PyTorch's autocast rules in a 16-bit dtype — bfloat16 by default on host devices,
/// half on Cuda, as PyTorch — with fp32 accumulation:
///  - matmul, linear (nn::Linear too) run in the 16-bit dtype;
///  - exp, log, pow, sum, mean, softmax, log_softmax, layer_norm, cross_entropy, nll_loss and
///    mse_loss run in fp32;
///  - the other ops (activations, arithmetic, shape ops, dropout, ...) run in their inputs'
///    dtype, the widest one when the inputs differ: 16 bits on results of 16-bit ops, fp32 on
///    anything that is fp32.
/// kt's types are static, so a 16-bit result comes back as a Var<float> holding its exact
/// widening and carrying the 16-bit Var with it; the next op in the region continues from that
/// in 16 bits, and what it saves for backward is 16-bit. `kt::amp::autocast_dtype(v)` tells the
/// dtype PyTorch would give v. Parameters stay fp32 (master weights); each parameter is cast
/// once per region (cached), and backward runs each op in the precision its forward used, the
/// gradients flowing back to fp32 through the casts.
///
///     for (auto [x, y] : loader) {
///       opt.zero_grad();
///       kt::Var<float> loss;
///       {
///         kt::amp::autocast<D> guard;                  // torch.autocast(device_type, torch.bfloat16)
///         auto logits = model(x);                      // autocast_dtype(logits) == "bfloat16"
///         loss = kt::cross_entropy(logits, y);         // fp32
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
/// Outside the guard every op runs in fp32 again. Differences from PyTorch: max/min reductions
/// give fp32 (the same values); an op on two 16-bit results of different dtypes (nested guards
/// of both kinds) runs in fp32. The 16-bit paths are compiled in on request, as they can double a
/// program's compile time: KT_ENABLE_AUTOCAST for every translation unit, which CMake's
/// -DKT_AUTOCAST=ON passes on (kt/core/impl/autocast_state.hpp). Without it a guard that would
/// open a region throws.

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_cast.hpp"
#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/bfloat16.hpp"
#include "kt/core/device.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/half.hpp"
#include "kt/core/impl/autocast_state.hpp"

#include <string>
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
  /// Throws kt::Error when `enabled` and the program was built without autocast
  /// (KT_ENABLE_AUTOCAST undefined); a disabled region is always allowed.
  explicit autocast(bool enabled = true) : previous_(impl::autocast_state<D>().dtype) {
    KT_REQUIRE(!enabled || impl::autocast_compiled, "kt::amp::autocast<", device_name<D>(), ", ",
               dtype_name<H>(), ">: this program was built without autocast's 16-bit op paths, which are "
               "compiled in on request; configure it with -DKT_AUTOCAST=ON (CMake) or define KT_ENABLE_AUTOCAST "
               "for every translation unit, or cast explicitly with Var::to<", dtype_name<H>(), ">()");
    impl::autocast_state<D>().dtype =
        !enabled ? impl::AutocastDtype::None
                 : (std::is_same_v<H, half> ? impl::AutocastDtype::Half : impl::AutocastDtype::BFloat16);
  }
  ~autocast() {
    impl::autocast_state<D>().dtype = previous_;
    if (previous_ == impl::AutocastDtype::None) impl::autocast_cast_cache<D>().clear();  // the outermost region ended
  }
  autocast(const autocast&) = delete;
  autocast& operator=(const autocast&) = delete;

  /// Whether ops on D run in 16 bits here (`torch.is_autocast_enabled()`).
  static bool is_enabled() { return impl::autocast_state<D>().dtype != impl::AutocastDtype::None; }

private:
  impl::AutocastDtype previous_;
};

/// The dtype PyTorch's autocast would give v (`v.dtype`): "bfloat16" or "float16" when an op
/// under autocast computed v in 16 bits (kt holds its exact widening in v), else v's own dtype.
template <class T, class D>
std::string autocast_dtype(const Var<T, D>& v) {
  if (impl::twin_of<bfloat16>(v).defined()) return dtype_name<bfloat16>();
  if (impl::twin_of<half>(v).defined()) return dtype_name<half>();
  return dtype_name<T>();
}

}  // namespace kt::amp

#include "kt/core/impl/public_end.hpp"
