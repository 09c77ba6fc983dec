#pragma once
// A scratch buffer from kt's caching allocator, returned when it goes out of scope: temporary
// memory of kt's own kernels (GEMM tuning's copy of C, widened 16-bit GEMM operands) that
// memory_stats counts and that costs no system allocation in a steady state.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/caching_allocator.hpp"
#include "kt/core/impl/stream_events.hpp"

#include <cstddef>

namespace kt::impl {

template <class MemSpace>
class Scratch {
public:
  Scratch(std::size_t bytes, const char* label, StreamId stream = nullptr)
      : block_(Allocator<MemSpace>::instance().allocate(bytes, label, stream)) {}
  ~Scratch() { Allocator<MemSpace>::instance().deallocate(block_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  /// The buffer as an array of T (its bytes hold at least what the constructor asked for).
  template <class T>
  T* as() const {
    return static_cast<T*>(block_.ptr);
  }

private:
  Block block_;
};

}  // namespace kt::impl
