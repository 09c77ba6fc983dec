#pragma once
// The one allocator layer every kt allocation goes through: counts bytes per memory space
// and, when caching is on, keeps freed blocks in size-binned free lists for reuse — per
// stream, so a block is never handed to one execution-space instance while work queued on
// another may still use it (kt/core/impl/block_cache.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/block_cache.hpp"
#include "kt/core/impl/format.hpp"
#include "kt/core/impl/memory_space_name.hpp"
#include "kt/core/impl/stream_events.hpp"
#include "kt/core/memory_stats.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// The blocks of one captured step (kt::StepGraph): its replays write them again and again, so
/// none of them may serve another tensor while the graph lives — PyTorch's private graph pool.
/// Blocks freed while the step is being captured (the pool's own, and older ones the step
/// released) are reused within the capture only (the captured work is ordered on one
/// stream); the graph's owner releases the pool, and its blocks then go to the ordinary cache,
/// the ones still held as their tensors free them.
struct BlockPool {
  std::multimap<std::size_t, void*> free;  // by size
  std::size_t live = 0;                    // blocks held by tensors
  bool released = false;
};

/// A block handed out by the allocator: the pointer, the size it really occupies, the stream
/// it was allocated for, and the captured step's pool it belongs to (null: the ordinary cache).
struct Block {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  StreamId stream = nullptr;
  BlockPool* pool = nullptr;
};

/// Size bins: 512-byte granules up to 4 KiB, then four bins per power of two, so a cached
/// block wastes at most 25% while sizes that recur in training loops hit the same bin.
inline std::size_t bin_size(std::size_t bytes) {
  constexpr std::size_t granule = 512;
  if (bytes <= 4096) return (bytes + granule - 1) / granule * granule;
  std::size_t power = 4096;
  while (power * 2 <= bytes && power < (std::size_t(1) << 62)) power *= 2;
  const std::size_t step = power / 4;
  const std::size_t rounded = (bytes + step - 1) / step * step;
  return rounded < bytes ? bytes : rounded;  // overflow: no rounding for absurd sizes
}

template <class MemSpace>
class Allocator {
public:
  /// Leaked on purpose, like RuntimeState: it must outlive tensors in static storage.
  static Allocator& instance() {
    static Allocator* allocator = new Allocator();
    return *allocator;
  }

  /// Returns a block of at least `bytes` (> 0) bytes for work ordered on `stream`; throws
  /// kt::Error when memory runs out.
  Block allocate(std::size_t bytes, const char* label, StreamId stream = nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.num_allocs;
    Block block{nullptr, caching_ || capture_pool_ ? bin_size(bytes) : bytes, stream, capture_pool_};
    if (capture_pool_ != nullptr) {
      const auto it = capture_pool_->free.find(block.bytes);
      if (it != capture_pool_->free.end()) {
        block.ptr = it->second;
        capture_pool_->free.erase(it);
        ++stats_.num_cache_hits;
      }
    } else if (caching_) {
      block.ptr = cache_.take(block.bytes, stream);
      if (block.ptr != nullptr) {
        ++stats_.num_cache_hits;
        count_allocated(block.bytes);
        return block;
      }
    }
    std::string failure;
    if (block.ptr == nullptr && !try_system_allocate(block, label, failure) && stats_.cached() > 0 &&
        capture_pool_ == nullptr) {
      empty_cache_locked();  // like PyTorch: give back the cache and retry once
      try_system_allocate(block, label, failure);
    }
    if (block.ptr != nullptr && block.pool != nullptr) {
      ++block.pool->live;
      count_allocated(block.bytes);
      return block;
    }
    if (block.ptr == nullptr) {
      ++stats_.num_oom;
      KT_THROW("kt: out of memory in ", memory_space_name<MemSpace>(), ": cannot allocate ",
               format_bytes(bytes), " for '", label, "'; currently allocated ",
               format_bytes(stats_.allocated), ", reserved ", format_bytes(stats_.reserved),
               ". Free tensors or call kt::empty_cache<Device>(). (", failure, ")");
    }
    if (block.pool != nullptr) ++block.pool->live;
    count_allocated(block.bytes);
    return block;
  }

  /// Takes a block back. `used_on`: other streams that used it (Storage::record_stream); it
  /// is reused only once their work queued so far is done.
  void deallocate(Block block, const std::vector<StreamId>& used_on = {}) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.allocated -= block.bytes;
    if (capture_pool_ != nullptr && block.pool == nullptr && block.bytes == bin_size(block.bytes)) {
      // Freed while a step is captured: captured work may have used it before this point and
      // will again at every replay, so it joins the graph's pool rather than the cache.
      capture_pool_->free.emplace(block.bytes, block.ptr);
      return;
    }
    if (BlockPool* pool = block.pool) {
      --pool->live;
      if (!pool->released) {
        pool->free.emplace(block.bytes, block.ptr);
        return;
      }
      if (pool->live == 0) delete pool;
      block.pool = nullptr;
    }
    if (caching_ && block.bytes == bin_size(block.bytes)) {
      cache_.give_back(block.ptr, block.bytes, block.stream, used_on);
    } else {
      // Not cached: the memory goes back to the system, which (cudaFree) waits for the device.
      system_deallocate(block);
    }
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    empty_cache_locked();
  }

  /// Allocations come from `pool` (null: a new one, returned) until end_capture():
  /// kt::StepGraph around the step it records, and around the eager run before that fills the
  /// pool (the capture then finds every block it needs there, cudaMalloc being one of the
  /// calls CUDA may refuse during a capture). Frees never reach the system meanwhile (cudaFree
  /// would wait for the device).
  BlockPool* begin_capture(BlockPool* pool = nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    KT_REQUIRE(capture_pool_ == nullptr, "kt::StepGraph: another step is being captured on ",
               memory_space_name<MemSpace>(), "; capture one step at a time");
    capture_pool_ = pool != nullptr ? pool : new BlockPool();
    return capture_pool_;
  }
  void end_capture() {
    std::lock_guard<std::mutex> lock(mutex_);
    capture_pool_ = nullptr;
  }
  /// The graph of `pool` is gone: its free blocks go to the cache, the others follow as their
  /// tensors free them.
  void release_pool(BlockPool* pool) noexcept {
    if (pool == nullptr) return;
    std::lock_guard<std::mutex> lock(mutex_);
    pool->released = true;
    for (const auto& kv : pool->free) {
      const Block block{kv.second, kv.first, nullptr, nullptr};
      if (caching_) cache_.give_back(block.ptr, block.bytes, block.stream, {});
      else system_deallocate(block);
    }
    pool->free.clear();
    if (pool->live == 0) delete pool;
  }

  MemoryStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.peak_allocated = stats_.allocated;
    stats_.peak_reserved = stats_.reserved;
  }

  void set_caching(bool enabled) {
    std::lock_guard<std::mutex> lock(mutex_);
    caching_ = enabled;
    if (!enabled) empty_cache_locked();
  }

  bool caching() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return caching_;
  }

private:
  // Cached blocks must go back before Kokkos finalises, whoever finalises it.
  Allocator() {
    Kokkos::push_finalize_hook([this] { empty_cache(); });
  }

  void count_allocated(std::size_t bytes) {
    stats_.allocated += bytes;
    stats_.peak_allocated = std::max(stats_.peak_allocated, stats_.allocated);
  }

  bool try_system_allocate(Block& block, const char* label, std::string& failure) {
    KT_REQUIRE(Kokkos::is_initialized(), "kt: cannot allocate '", label, "' in ",
               memory_space_name<MemSpace>(), ": Kokkos is not initialised; create a kt::Runtime first");
    try {
      block.ptr = MemSpace().allocate(label, block.bytes);
    } catch (const std::exception& e) {  // Kokkos reports allocation failures by throwing
      // (Kokkos 3's RawMemoryAllocationFailure::what() is null for errors other than
      // out-of-memory, e.g. a cudaMalloc that CUDA refused)
      const char* what = e.what();
      failure = what != nullptr ? what : "the system allocator failed (no reason given)";
      block.ptr = nullptr;
    }
    if (block.ptr == nullptr) return false;
    ++stats_.num_system_allocs;
    stats_.reserved += block.bytes;
    stats_.peak_reserved = std::max(stats_.peak_reserved, stats_.reserved);
    return true;
  }

  void system_deallocate(Block block) noexcept {
    MemSpace().deallocate(block.ptr, block.bytes);
    stats_.reserved -= block.bytes;
  }

  void empty_cache_locked() {
    cache_.clear([this](void* ptr, std::size_t bytes) { system_deallocate(Block{ptr, bytes}); });
  }

  mutable std::mutex mutex_;
  BlockCache<typename events_of<MemSpace>::type> cache_;
  MemoryStats stats_;
  BlockPool* capture_pool_ = nullptr;
  // On by default everywhere: device allocations (cudaMalloc) synchronise, and large host
  // allocations (mmap'd by glibc above 32 MiB) pay page faults on every first touch, which
  // cost a large elementwise result more than its arithmetic (docs/performance.md, "Fixed cost
  // of small ops").
  bool caching_ = true;
};

}  // namespace kt::impl
