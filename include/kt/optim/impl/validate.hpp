#pragma once
// The range checks of optimizer options.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cmath>

namespace kt::impl {

/// Learning rates, momenta, ...: finite and >= 0 (kt::Error naming the optimizer and setting).
inline void require_non_negative(const char* optimizer, const char* setting, double value) {
  KT_REQUIRE(std::isfinite(value) && value >= 0, optimizer, ": invalid ", setting, " ", value,
             " (expected a finite value >= 0)");
}

}  // namespace kt::impl
