// The stream rules of kt's caching allocator (kt/core/impl/block_cache.hpp), checked
// deterministically on the host with injected events: the test decides when "queued work"
// on a stream has finished, so no GPU is needed to see that a block is never handed to one
// stream while another may still use it.

#define KT_USES_INTERNALS  // tests the allocator's block cache, an internal piece
#include "kt_test.hpp"

#include <kt/core/impl/block_cache.hpp>

#include <cstddef>
#include <vector>

namespace {

using kt::impl::StreamId;

/// Events whose completion the test controls: record() marks work pending on a stream,
/// finish(stream) completes everything recorded on it so far.
struct FakeEvents {
  struct Event {
    std::size_t id = 0;
  };
  struct Log {
    std::vector<StreamId> stream;  // per recorded event
    std::vector<bool> done;
    int waits = 0;
  };
  Log* log;

  Event record(StreamId s) {
    log->stream.push_back(s);
    log->done.push_back(false);
    return {log->done.size() - 1};
  }
  bool done(const Event& e) { return log->done[e.id]; }
  void wait(const Event& e) {
    ++log->waits;
    log->done[e.id] = true;
  }
  void release(Event&) {}

  static void finish(Log& log, StreamId s) {
    for (std::size_t i = 0; i < log.stream.size(); ++i)
      if (log.stream[i] == s) log.done[i] = true;
  }
};

// Three "streams" and three "blocks": only their identities matter.
int stream_a = 0, stream_b = 0, stream_c = 0;
const StreamId A = &stream_a, B = &stream_b, C = &stream_c;
char memory[3][64];
void* const p1 = memory[0];
void* const p2 = memory[1];

}  // namespace

TEST_CASE("block cache: a block freed on its own stream is reused by that stream at once, never by another") {
  FakeEvents::Log log;
  kt::impl::BlockCache<FakeEvents> cache(FakeEvents{&log});
  cache.give_back(p1, 512, A, {});
  CHECK(log.stream.empty());             // nothing to wait for: work on A runs in order
  CHECK(cache.take(512, B) == nullptr);  // another stream may not have it
  CHECK(cache.take(1024, A) == nullptr); // nor another size
  CHECK(cache.take(512, A) == p1);
  CHECK(cache.take(512, A) == nullptr);  // handed out once
}

TEST_CASE("block cache: a block also used on another stream waits for that stream's work") {
  FakeEvents::Log log;
  kt::impl::BlockCache<FakeEvents> cache(FakeEvents{&log});
  // Allocated for A (say the DataLoader's copy stream), read by kernels queued on B (the
  // default stream), freed while B may still be reading it.
  cache.give_back(p1, 512, A, {B});
  REQUIRE(log.stream.size() == 1);
  CHECK(log.stream[0] == B);
  CHECK(cache.pending_blocks() == 1);
  CHECK(cache.take(512, A) == nullptr);  // B's work is pending: not even its owner gets it
  CHECK(cache.take(512, B) == nullptr);  // and B never does (it is A's block)
  FakeEvents::finish(log, C);            // unrelated work finishing changes nothing
  CHECK(cache.take(512, A) == nullptr);
  FakeEvents::finish(log, B);            // B's queued work is done
  CHECK(cache.take(512, B) == nullptr);
  CHECK(cache.take(512, A) == p1);
  CHECK(cache.pending_blocks() == 0);
}

TEST_CASE("block cache: every other stream that used a block must finish; the owner's own use needs no event") {
  FakeEvents::Log log;
  kt::impl::BlockCache<FakeEvents> cache(FakeEvents{&log});
  cache.give_back(p1, 512, A, {A, B, C});  // A listed too: no event for the owner
  CHECK(log.stream.size() == 2);
  cache.give_back(p2, 512, A, {});
  CHECK(cache.take(512, A) == p2);  // the block used only on A comes back first
  FakeEvents::finish(log, B);
  CHECK(cache.take(512, A) == nullptr);  // C may still use p1
  FakeEvents::finish(log, C);
  CHECK(cache.take(512, A) == p1);
}

TEST_CASE("block cache: clear() waits for pending work and releases every block once") {
  FakeEvents::Log log;
  kt::impl::BlockCache<FakeEvents> cache(FakeEvents{&log});
  cache.give_back(p1, 512, A, {B});
  cache.give_back(p2, 4096, B, {});
  std::vector<std::pair<void*, std::size_t>> released;
  cache.clear([&](void* p, std::size_t bytes) { released.emplace_back(p, bytes); });
  CHECK(log.waits == 1);
  CHECK(released.size() == 2);
  CHECK(cache.pending_blocks() == 0);
  CHECK(cache.free_blocks() == 0);
  CHECK(cache.take(512, A) == nullptr);
}

TEST_CASE_TEMPLATE("Tensor::record_stream on host devices: no pending work, the cache works as before", D,
                   KT_HOST_DEVICES) {
  kt::empty_cache<D>();
  const auto before = kt::memory_stats<D>();
  const void* first;
  {
    kt::Tensor<float, D> t({1000});
    t.record_stream(D());  // host kernels are synchronous: nothing to wait for
    first = t.data();
  }
  kt::Tensor<float, D> again({1000});
  CHECK(static_cast<const void*>(again.data()) == first);  // straight from the cache
  CHECK(kt::memory_stats<D>().num_cache_hits == before.num_cache_hits + 1);
}
