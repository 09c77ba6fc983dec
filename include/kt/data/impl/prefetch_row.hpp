#pragma once
// A hint for gathers of random rows (kt::TensorDataset, kt::NormalizedDataset): start loading
// the next row while this one is copied, or each row begins with a cache miss.

#include "kt/core/impl/internal.hpp"

#include <cstdint>

namespace kt::impl {

/// Prefetches the first min(bytes, 4 KiB) at p, one request per 64-byte line.
inline void prefetch_row([[maybe_unused]] const void* p, [[maybe_unused]] std::int64_t bytes) {
#if defined(__GNUC__)
  const char* c = static_cast<const char*>(p);
  for (std::int64_t b = 0; b < bytes && b < 4096; b += 64) __builtin_prefetch(c + b);
#endif
}

}  // namespace kt::impl
