#pragma once
// Compile-time checks that operands live on one device and hold one dtype. The static_assert
// messages start with the operation's name; the compiler's "In instantiation of ... [with
// D1 = ...; D2 = ...]" line right above names both devices.

#include <type_traits>

/// Fails to compile unless D1 and D2 are the same device.
#define KT_STATIC_REQUIRE_SAME_DEVICE(D1, D2, op)                                              \
  static_assert(std::is_same_v<D1, D2>,                                                        \
                op ": tensors are on different devices (D1 and D2 in the instantiation above); " \
                   "move one with .to<Device>() first, e.g. b.to<kt::DefaultDevice>()")

/// Fails to compile unless T1 and T2 are the same dtype.
#define KT_STATIC_REQUIRE_SAME_DTYPE(T1, T2, op)                                               \
  static_assert(std::is_same_v<T1, T2>,                                                        \
                op ": tensors have different dtypes (T1 and T2 in the instantiation above); "   \
                   "convert one with .to<T>() first, e.g. b.to<float>()")
