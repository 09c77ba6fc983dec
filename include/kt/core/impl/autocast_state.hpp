#pragma once
// The state behind kt::amp::autocast, kept in core/ because ops of lower layers consult it
// (autograd's ops, functional's): per device type and per thread (as PyTorch's), the 16-bit
// dtype ops cast to (none outside a region). The region's cache of parameters' casts is
// autograd's (kt/autograd/impl/autocast_cast.hpp).

#include "kt/core/impl/internal.hpp"


namespace kt::impl {

enum class AutocastDtype { None, Half, BFloat16 };

/// Whether autocast is compiled in. Each float op's path for autocast regions runs the op again
/// in kt::half and in kt::bfloat16 — in effect the autograd stack for two more dtypes, which
/// can double the compile time of a program that never opens a region (docs/integration.md,
/// "Compile time"). So it is opt-in: defining KT_ENABLE_AUTOCAST for every translation unit
/// of a program (CMake: -DKT_AUTOCAST=ON, which kt::kt passes on; on by default in kt's own
/// tests, examples and benchmarks) compiles it in. Without it kt::amp::autocast refuses to
/// open a region; explicit 16-bit tensors and casts are unaffected.
#if defined(KT_ENABLE_AUTOCAST)
inline constexpr bool autocast_compiled = true;
#else
inline constexpr bool autocast_compiled = false;
#endif

struct AutocastState {
  AutocastDtype dtype = AutocastDtype::None;
};

/// This thread's autocast state for device D.
template <class D>
AutocastState& autocast_state() {
  thread_local AutocastState state;
  return state;
}

}  // namespace kt::impl
