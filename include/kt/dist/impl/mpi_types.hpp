#pragma once
// The MPI datatype of each kt dtype on the wire. MPI has no 16-bit floats: half and bfloat16
// travel as their 16 bits where nothing is computed (broadcast, all_gather) and are widened to
// fp32 where values are combined (all_reduce, reduce_scatter), so a sum of many ranks is
// rounded once, not at every step.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/dist/reduce_op.hpp"

#include <mpi.h>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// The type a reduction of T runs in: T itself, fp32 for the 16-bit floats.
template <class T>
using mpi_reduce_t = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return MPI_UINT8_T;
  else {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, "kt::dist: not a kt dtype");
    return MPI_UINT16_T;  // moved, never combined
  }
}

/// MPI's operation for a kt one; avg is a sum that the caller divides afterwards.
inline MPI_Op mpi_op(dist::ReduceOp op) {
  switch (op) {
    case dist::ReduceOp::max: return MPI_MAX;
    case dist::ReduceOp::min: return MPI_MIN;
    default: return MPI_SUM;
  }
}

}  // namespace kt::impl
