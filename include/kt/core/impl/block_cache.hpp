#pragma once
// The free lists of kt's caching allocator, made safe for asynchronous devices (PyTorch's
// caching allocator with record_stream, in small).
//
// Every block belongs to the stream (execution-space instance) it was allocated for. Work on
// one stream runs in order, so a block freed on its own stream may go straight back to that
// stream's free list: anything queued later on the stream runs after the work that used it.
// A block that was also used on other streams (`record_stream`) may still be read or written
// there when it is freed; it waits in a pending list with one event per such stream, and only
// returns to its owner's free list once every event has completed. A free block is never
// handed to another stream. Host memory spaces run synchronously and never have pending work.
//
// `Events` is how pending work is observed: `record(stream) -> event`, `done(event)`,
// `wait(event)` and `release(event)`; kt/core/impl/stream_events.hpp has the CUDA one, and
// the tests inject their own to check the rules without a GPU.

#include "kt/core/impl/internal.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace kt::impl {

/// Which execution-space instance's queue work is ordered on: a cudaStream_t on Cuda, null on
/// host devices (whose kernels are synchronous).
using StreamId = const void*;

template <class Events>
class BlockCache {
public:
  using Event = typename Events::Event;

  explicit BlockCache(Events events = Events()) : events_(std::move(events)) {}

  /// A cached block of exactly `bytes` that `stream` may use now, or null.
  void* take(std::size_t bytes, StreamId stream) {
    collect_finished();
    auto it = free_.find({bytes, stream});
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* ptr = it->second.back();
    it->second.pop_back();
    return ptr;
  }

  /// Takes back a block allocated for `owner` and also used on the streams `used_on`.
  void give_back(void* ptr, std::size_t bytes, StreamId owner, const std::vector<StreamId>& used_on) {
    Pending pending{ptr, bytes, owner, {}};
    for (StreamId s : used_on)
      if (s != owner) pending.events.push_back(events_.record(s));
    if (pending.events.empty()) free_[{bytes, owner}].push_back(ptr);
    else pending_.push_back(std::move(pending));
  }

  /// Hands every cached block to `release(ptr, bytes)`, waiting for pending work first.
  template <class Release>
  void clear(Release release) {
    for (auto& p : pending_) {
      for (auto& e : p.events) {
        events_.wait(e);
        events_.release(e);
      }
      release(p.ptr, p.bytes);
    }
    pending_.clear();
    for (auto& [key, ptrs] : free_)
      for (void* ptr : ptrs) release(ptr, key.first);
    free_.clear();
  }

  /// Blocks waiting for other streams, and blocks ready for reuse.
  std::size_t pending_blocks() const { return pending_.size(); }
  std::size_t free_blocks() const {
    std::size_t n = 0;
    for (const auto& kv : free_) n += kv.second.size();
    return n;
  }

  Events& events() { return events_; }

private:
  struct Pending {
    void* ptr;
    std::size_t bytes;
    StreamId owner;
    std::vector<Event> events;
  };

  // Moves pending blocks whose streams have all finished to their owner's free list.
  void collect_finished() {
    auto ready = [this](Pending& p) {
      for (auto& e : p.events)
        if (!events_.done(e)) return false;
      return true;
    };
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (ready(*it)) {
        for (auto& e : it->events) events_.release(e);
        free_[{it->bytes, it->owner}].push_back(it->ptr);
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
  }

  Events events_;
  std::map<std::pair<std::size_t, StreamId>, std::vector<void*>> free_;
  std::vector<Pending> pending_;
};

/// The Events of synchronous (host) memory spaces: work is finished when the call returns.
struct NoEvents {
  struct Event {};
  Event record(StreamId) { return {}; }
  bool done(const Event&) { return true; }
  void wait(const Event&) {}
  void release(Event&) {}
};

}  // namespace kt::impl
