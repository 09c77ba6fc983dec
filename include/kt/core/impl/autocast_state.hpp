#pragma once
// The state behind kt::amp::autocast, kept in core/ because ops of lower layers consult it
// (autograd's ops, functional's): per device type and per thread (as PyTorch's), the 16-bit
// dtype ops cast to (none outside a region). The region's cache of parameters' casts is
// autograd's (kt/autograd/impl/autocast_cast.hpp).

#include "kt/core/impl/internal.hpp"


namespace kt::impl {

enum class AutocastDtype { None, Half, BFloat16 };

/// Whether autocast is compiled in. Every float op carries a 16-bit path for autocast regions,
/// for kt::half and kt::bfloat16, which a program pays for in compile time whether or not it
/// opens a region (about 60% of a one-Linear program's: docs/performance.md, "Compile time").
/// Defining KT_NO_AUTOCAST for every translation unit of a program (CMake: -DKT_AUTOCAST=OFF,
/// which kt::kt passes on) compiles those paths out; kt::amp::autocast then refuses to open a
/// region. Explicit 16-bit tensors and casts are unaffected.
#if defined(KT_NO_AUTOCAST)
inline constexpr bool autocast_compiled = false;
#else
inline constexpr bool autocast_compiled = true;
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
