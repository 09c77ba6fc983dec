#pragma once
// The state behind kt::amp::autocast, kept in core/ because ops of lower layers consult it
// (autograd's matmul, functional's linear): per device type and per thread (as PyTorch's),
// the 16-bit dtype ops cast to (none outside a region) and the region's cache of casts of
// parameters, so that a weight used by several ops in one forward is converted once.

#include "kt/core/impl/internal.hpp"

#include <memory>
#include <unordered_map>
#include <utility>

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
  /// Source variable -> (the source, kept alive so its address is not reused; its cast).
  std::unordered_map<const void*, std::pair<std::shared_ptr<const void>, std::shared_ptr<void>>> cache;
};

/// This thread's autocast state for device D.
template <class D>
AutocastState& autocast_state() {
  thread_local AutocastState state;
  return state;
}

}  // namespace kt::impl
