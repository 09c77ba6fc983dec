#pragma once
// The memory behind one or more tensors: a block from kt's allocator (owning) or memory that
// belongs to someone else (`kt::from_blob`, Eigen interop). Shared through std::shared_ptr.

#include "kt/core/impl/caching_allocator.hpp"
#include "kt/core/impl/runtime_state.hpp"

#include <cstddef>
#include <memory>

namespace kt::impl {

template <class MemSpace>
class Storage {
public:
  /// A new block of `bytes` (> 0) bytes from the memory space's allocator.
  static std::shared_ptr<Storage> allocate(std::size_t bytes, const char* label) {
    const Block block = Allocator<MemSpace>::instance().allocate(bytes, label);
    return std::shared_ptr<Storage>(new Storage(block, true));
  }

  /// Memory owned elsewhere; the caller keeps it alive for as long as tensors use it.
  static std::shared_ptr<Storage> borrow(void* ptr, std::size_t bytes) {
    return std::shared_ptr<Storage>(new Storage(Block{ptr, bytes}, false));
  }

  ~Storage() {
    if (!owning_) return;
    Allocator<MemSpace>::instance().deallocate(block_);
    RuntimeState::instance().storage_released();
  }

  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return block_.ptr; }
  std::size_t bytes() const { return block_.bytes; }
  bool owning() const { return owning_; }

private:
  Storage(Block block, bool owning) : block_(block), owning_(owning) {
    if (owning_) RuntimeState::instance().storage_acquired();
  }

  Block block_;
  bool owning_;
};

}  // namespace kt::impl
