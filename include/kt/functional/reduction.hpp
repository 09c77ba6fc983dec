#pragma once
/// \file kt/functional/reduction.hpp
/// How a loss reduces its per-sample values (`reduction='mean' | 'sum' | 'none'`), and the
/// class index losses skip by default (`ignore_index=-100`).

#include <cstdint>

namespace kt {

enum class Reduction { None, Mean, Sum };

/// The target value cross_entropy and nll_loss ignore unless told otherwise (PyTorch's -100).
inline constexpr std::int64_t default_ignore_index = -100;

}  // namespace kt
