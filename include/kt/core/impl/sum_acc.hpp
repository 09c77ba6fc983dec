#pragma once
// The type sums accumulate in, for every kernel that adds up a row or a tensor (reductions,
// softmax, cross-entropy, layer_norm): one dtype policy, so that kernels which sum the same
// values sum them the same way.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// float and double inputs accumulate in double: a 4096-element float chunk summed in float
/// would lose up to ~12 bits, in double the result is exact to float rounding, and reductions
/// are bound by memory bandwidth, not by fp64 throughput. kt::half and kt::bfloat16 accumulate
/// in float, as in PyTorch: float's 24-bit mantissa is far finer than their 11/8 bits, so the
/// one final rounding dominates. Integers sum in int64.
template <class T>
using sum_acc_t = std::conditional_t<
    std::is_integral_v<T>, std::int64_t,
    std::conditional_t<std::is_same_v<compute_t<T>, float> && !std::is_same_v<T, float>, float,
                       double>>;

}  // namespace kt::impl
