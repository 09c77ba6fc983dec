#pragma once
/// \file kt/data/idx_options.hpp
/// Validation policy of kt::read_idx / kt::read_idx_float, with chained setters. Every setter
/// has a getter of the same name.
///
///     auto images = kt::read_idx(path, kt::IdxOptions().rank(3));               // (N, H, W) only
///     auto big = kt::read_idx(path, kt::IdxOptions().max_bytes(std::int64_t{8} << 30));
///     auto any = kt::read_idx(path, kt::IdxOptions().allow_empty(true));       // (0, 28, 28) too

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/tensor/shape.hpp"

#include <cstdint>

namespace kt {

class IdxOptions {
public:
  /// Default of max_bytes(): 2 GiB.
  static constexpr std::int64_t default_max_bytes = std::int64_t{1} << 31;

  /// The largest element data a file may declare, in bytes (the header's dimensions times the
  /// element size, header excluded). A larger claim is an error before anything is allocated
  /// or decompressed. Default 2 GiB.
  IdxOptions& max_bytes(std::int64_t n) {
    KT_REQUIRE(n >= 0, "kt::IdxOptions::max_bytes: must be non-negative, got ", n);
    max_bytes_ = n;
    return *this;
  }
  /// The rank the file must have (1 to kt::Shape::max_rank); 0 accepts any rank (default).
  IdxOptions& rank(int r) {
    KT_REQUIRE(r >= 0 && r <= Shape::max_rank, "kt::IdxOptions::rank: must be 0 (any) or 1 to ",
               Shape::max_rank, ", got ", r);
    rank_ = r;
    return *this;
  }
  /// Accept dimensions of extent 0 (an empty tensor). Default false: a zero dimension is an
  /// error, as it is almost always a damaged header.
  IdxOptions& allow_empty(bool on) { allow_empty_ = on; return *this; }

  std::int64_t max_bytes() const { return max_bytes_; }
  int rank() const { return rank_; }
  bool allow_empty() const { return allow_empty_; }

private:
  std::int64_t max_bytes_ = default_max_bytes;
  int rank_ = 0;
  bool allow_empty_ = false;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
