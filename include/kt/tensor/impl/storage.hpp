#pragma once
// The memory behind one or more tensors: a block from kt's allocator (owning) or memory that
// belongs to someone else (`kt::from_blob`, Eigen interop). Shared through std::shared_ptr.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/caching_allocator.hpp"
#include "kt/core/impl/runtime_state.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace kt::impl {

template <class MemSpace>
class Storage {
  // Only Storage's factories construct one; the key lets them do it through std::make_shared
  // (the object and its reference counts in one allocation: one fewer per tensor).
  struct Key {
    explicit Key() = default;
  };

public:
  /// A new block of `bytes` (> 0) bytes from the memory space's allocator, for work ordered on
  /// `stream` (see kt/core/impl/block_cache.hpp).
  static std::shared_ptr<Storage> allocate(std::size_t bytes, const char* label, StreamId stream = nullptr) {
    const Block block = Allocator<MemSpace>::instance().allocate(bytes, label, stream);
    return std::make_shared<Storage>(Key(), block, true);
  }

  /// Memory owned elsewhere; the caller keeps it alive for as long as tensors use it.
  static std::shared_ptr<Storage> borrow(void* ptr, std::size_t bytes) {
    return std::make_shared<Storage>(Key(), Block{ptr, bytes, nullptr}, false);
  }

  /// Memory owned elsewhere and handed over: `release()` runs once, when the last tensor
  /// using the memory is gone (a DLPack producer's deleter, a caller's free).
  template <class Release>
  static std::shared_ptr<Storage> adopt(void* ptr, std::size_t bytes, Release release) {
    return std::shared_ptr<Storage>(new Storage(Key(), Block{ptr, bytes, nullptr}, false), [release](Storage* s) mutable {
      delete s;
      release();
    });
  }

  Storage(Key, Block block, bool owning) : block_(block), owning_(owning) {
    if (owning_) RuntimeState::instance().storage_acquired();
  }

  ~Storage() {
    if (!owning_) return;
    Allocator<MemSpace>::instance().deallocate(block_, used_on_);
    RuntimeState::instance().storage_released();
  }

  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return block_.ptr; }
  std::size_t bytes() const { return block_.bytes; }
  bool owning() const { return owning_; }
  /// The stream the block was allocated for.
  StreamId stream() const { return block_.stream; }

  /// Notes that work on `stream` uses the memory (`Tensor.record_stream`): when the storage
  /// is freed, the block is reused only after the work queued on `stream` so far is done.
  void record_stream(StreamId stream) {
    if (!owning_ || stream == block_.stream) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::find(used_on_.begin(), used_on_.end(), stream) == used_on_.end()) used_on_.push_back(stream);
  }

private:
  Block block_;
  bool owning_;
  std::mutex mutex_;
  std::vector<StreamId> used_on_;
};

}  // namespace kt::impl
