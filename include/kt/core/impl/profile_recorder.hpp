#pragma once
// What kt::Profiler records: Kokkos Tools callbacks (kernels, regions, deep copies) and kt's
// own host waits (kt/core/impl/host_wait.hpp) turned into per-key statistics and a bounded
// list of trace events.
//
// Design:
// - Kokkos Tools has one set of plain function-pointer callbacks per process, so at most one
//   recorder is active; the callbacks reach it through `active`, guarded by one mutex. The
//   same mutex serialises recording, so kernels launched from DataLoader worker threads are
//   safe, and a Profiler that stops while another thread is inside a callback cannot be
//   destroyed under it.
// - Durations are host wall time between the begin and end callbacks. Kokkos fences around
//   every callback by default (a tool "requires global fencing"), so on Cuda a kernel's time
//   is its execution time, as in the Kokkos simple kernel timer.
// - A region's self time is its total minus the regions, kernels and copies that ran inside it
//   on the same thread (torch.profiler's "self" column). Region stacks are per thread.

#include "kt/core/impl/internal.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace kt::impl {

enum class ProfileKind { Region, Kernel, Copy, Fence };

inline const char* profile_kind_name(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::Region: return "region";
    case ProfileKind::Kernel: return "kernel";
    case ProfileKind::Copy: return "copy";
    case ProfileKind::Fence: return "fence";
  }
  return "?";
}

/// The device of a Kokkos Tools device id (type in the top 8 bits, instance below).
inline std::string profile_device_name(std::uint32_t device_id) {
  static const char* names[] = {"Serial", "OpenMP", "Cuda", "HIP", "OpenMPTarget", "HPX", "Threads", "SYCL"};
  const std::uint32_t type = device_id >> 24;
  return type < sizeof names / sizeof names[0] ? names[type] : "Unknown";
}

struct ProfileKey {
  ProfileKind kind;
  std::string device;  // "" for regions (they span devices)
  std::string name;
  bool operator<(const ProfileKey& o) const {
    return std::tie(kind, device, name) < std::tie(o.kind, o.device, o.name);
  }
};

struct ProfileStat {
  std::int64_t count = 0;
  std::int64_t total_ns = 0, self_ns = 0, min_ns = 0, max_ns = 0;
  std::uint64_t bytes = 0;  // copies
};

struct ProfileEvent {
  int key;  // index into ProfileRecorder::keys
  int thread;
  std::int64_t start_ns, duration_ns;
};

class ProfileRecorder {
public:
  using clock = std::chrono::steady_clock;

  explicit ProfileRecorder(std::size_t max_events) : max_events_(max_events), origin_(clock::now()) {}

  /// The recorder the callbacks feed (nullptr: none), and the mutex guarding it and it.
  static ProfileRecorder*& active() {
    static ProfileRecorder* recorder = nullptr;
    return recorder;
  }
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }

  // --- called with mutex() held -------------------------------------------------------------
  void kernel_begin(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
    *kernel_id = next_kernel_id_++;
    open_kernels_[*kernel_id] = Open{key_of(ProfileKind::Kernel, profile_device_name(device_id), name), now(), 0};
  }
  void kernel_end(std::uint64_t kernel_id) {
    const auto it = open_kernels_.find(kernel_id);
    if (it == open_kernels_.end()) return;  // began before the profiler started
    close(it->second, 0);
    open_kernels_.erase(it);
  }
  void region_push(const char* name) { thread().regions.push_back(Open{key_of(ProfileKind::Region, "", name), now(), 0}); }
  void region_pop() {
    auto& regions = thread().regions;
    if (regions.empty()) return;  // pushed before the profiler started
    const Open open = regions.back();
    regions.pop_back();
    close(open, 0);
  }
  void copy_begin(const char* dst_space, const char* src_space, std::uint64_t bytes) {
    thread().copies.push_back(Open{key_of(ProfileKind::Copy, std::string(src_space) + "->" + dst_space, "Kokkos::deep_copy"), now(), bytes});
  }
  void copy_end() {
    auto& copies = thread().copies;
    if (copies.empty()) return;
    const Open open = copies.back();
    copies.pop_back();
    close(open, open.bytes);
  }

  /// A host wait of kt's (item(), a blocking copy, kt::synchronize(), ...) on `device`.
  void fence_begin(const char* name, const std::string& device) {
    thread().fences.push_back(Open{key_of(ProfileKind::Fence, device, name), now(), 0});
  }
  void fence_end() {
    auto& fences = thread().fences;
    if (fences.empty()) return;
    const Open open = fences.back();
    fences.pop_back();
    close(open, 0);
  }

  // --- results (call with mutex() held, or after the recorder left active()) ----------------
  const std::vector<ProfileKey>& keys() const { return keys_; }
  const std::vector<ProfileStat>& stats() const { return stats_; }
  const std::vector<ProfileEvent>& events() const { return events_; }
  std::size_t dropped_events() const { return dropped_events_; }

private:
  struct Open {
    int key;
    std::int64_t start_ns;
    std::uint64_t bytes;
    std::int64_t child_ns = 0;
  };
  struct ThreadState {
    int index;
    std::vector<Open> regions, copies, fences;
  };

  std::int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - origin_).count();
  }
  ThreadState& thread() {
    const auto id = std::this_thread::get_id();
    auto it = threads_.find(id);
    if (it == threads_.end()) it = threads_.emplace(id, ThreadState{static_cast<int>(threads_.size()), {}, {}, {}}).first;
    return it->second;
  }
  int key_of(ProfileKind kind, std::string device, const char* name) {
    ProfileKey key{kind, std::move(device), name ? name : "(unnamed)"};
    const auto it = key_index_.find(key);
    if (it != key_index_.end()) return it->second;
    keys_.push_back(key);
    stats_.emplace_back();
    return key_index_[key] = static_cast<int>(keys_.size()) - 1;
  }
  void close(const Open& open, std::uint64_t bytes) {
    const std::int64_t duration = now() - open.start_ns;
    auto& state = thread();
    ProfileStat& s = stats_[static_cast<std::size_t>(open.key)];
    s.min_ns = s.count == 0 ? duration : std::min(s.min_ns, duration);
    s.max_ns = s.count == 0 ? duration : std::max(s.max_ns, duration);
    ++s.count;
    s.total_ns += duration;
    s.self_ns += duration - open.child_ns;
    s.bytes += bytes;
    if (!state.regions.empty()) state.regions.back().child_ns += duration;  // the enclosing region
    if (events_.size() < max_events_) events_.push_back(ProfileEvent{open.key, state.index, open.start_ns, duration});
    else ++dropped_events_;
  }

  std::size_t max_events_;
  clock::time_point origin_;
  std::vector<ProfileKey> keys_;
  std::vector<ProfileStat> stats_;
  std::map<ProfileKey, int> key_index_;
  std::unordered_map<std::thread::id, ThreadState> threads_;
  std::unordered_map<std::uint64_t, Open> open_kernels_;
  std::uint64_t next_kernel_id_ = 1;
  std::vector<ProfileEvent> events_;
  std::size_t dropped_events_ = 0;
};

}  // namespace kt::impl
