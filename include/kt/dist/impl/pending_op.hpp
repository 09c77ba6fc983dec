#pragma once
// A collective in flight: its MPI requests, the buffers they use (owned here, so they outlive
// the requests) and what to do once they complete (divide for avg, narrow fp32 back to 16
// bits, copy a staging buffer back to the device). Progress is made only when MPI is called:
// test() is cheap and is what DistributedDataParallel calls between gradients.

#include "kt/core/impl/internal.hpp"

#include "kt/dist/impl/mpi_call.hpp"

#include <mpi.h>

#include <exception>
#include <functional>
#include <utility>
#include <vector>

namespace kt::impl {

class PendingOp {
public:
  PendingOp() = default;
  PendingOp(const PendingOp&) = delete;
  PendingOp& operator=(const PendingOp&) = delete;
  /// Never frees a buffer MPI may still write: an unfinished op is waited for — unless an
  /// exception is unwinding, when the job is about to be aborted and waiting could hang.
  ~PendingOp() {
    if (done_ || !mpi_is_running()) return;
    if (std::uncaught_exceptions() > 0) {
      keep_alive_on_unwind();
      return;
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

  std::vector<MPI_Request>& requests() { return requests_; }
  /// Runs once, after every request completed.
  void on_complete(std::function<void()> finish) { finish_ = std::move(finish); }

  bool test() {
    if (done_) return true;
    int flag = 0;
    KT_MPI(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &flag, MPI_STATUSES_IGNORE));
    if (flag) complete();
    return done_;
  }
  void wait() {
    if (done_) return;
    KT_MPI(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
    complete();
  }

private:
  void complete() {
    done_ = true;
    if (finish_) {
      auto finish = std::move(finish_);
      finish();
    }
  }
  // The buffers belong to finish_: leak them rather than free memory MPI may still write.
  void keep_alive_on_unwind() { new std::function<void()>(std::move(finish_)); }

  std::vector<MPI_Request> requests_;
  std::function<void()> finish_;
  bool done_ = false;
};

}  // namespace kt::impl
