#pragma once
/// \file kt/dist/reduce_op.hpp
/// How a collective combines the ranks' values (`torch.distributed.ReduceOp`). `avg` is the
/// sum divided by the world size, for floating dtypes only (16-bit ones are reduced in fp32).

namespace kt::dist {

enum class ReduceOp { sum, avg, max, min };

inline const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::avg: return "avg";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
  }
  return "?";
}

}  // namespace kt::dist
