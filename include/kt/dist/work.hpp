#pragma once
/// \file kt/dist/work.hpp
/// The handle of a non-blocking collective (`torch.distributed.Work`, what `async_op=True`
/// returns). The tensors it was given must not be read or written until `wait()` returns (or
/// `is_completed()` returned true); `wait()` is where averaging and 16-bit narrowing happen.
///
///     auto work = kt::dist::all_reduce_async(grad, kt::dist::ReduceOp::avg);
///     ... compute something else ...
///     work.wait();

#include "kt/core/impl/public_begin.hpp"

#include "kt/dist/impl/pending_op.hpp"

#include <memory>
#include <utility>

namespace kt::dist {

class Work {
public:
  Work() = default;  // a completed no-op
  explicit Work(std::shared_ptr<impl::PendingOp> op) : op_(std::move(op)) {}

  /// Blocks until the collective is complete and its results are in the tensors.
  void wait() {
    if (op_) op_->wait();
  }
  /// Makes progress without blocking; true once complete (results in place).
  bool is_completed() { return !op_ || op_->test(); }

private:
  std::shared_ptr<impl::PendingOp> op_;
};

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
