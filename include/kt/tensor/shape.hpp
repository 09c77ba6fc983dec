#pragma once
/// \file kt/tensor/shape.hpp
/// The extents of a tensor: rank 0 to 6, row-major.
///
///     kt::Shape s{64, 784};
///     s.rank();   // 2
///     s.numel();  // 50176
///     s.str();    // "(64, 784)"

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

namespace kt {

class Shape {
public:
  static constexpr int max_rank = 6;

  /// Rank 0: a scalar with one element.
  Shape() = default;

  Shape(std::initializer_list<std::int64_t> dims) { assign(dims.begin(), dims.end()); }

  explicit Shape(const std::vector<std::int64_t>& dims) { assign(dims.begin(), dims.end()); }

  int rank() const { return rank_; }

  /// Extent of `dim`; negative dims count from the back as in PyTorch.
  std::int64_t operator[](int dim) const { return dims_[static_cast<std::size_t>(normalize_dim(dim))]; }

  std::int64_t numel() const {
    std::int64_t n = 1;
    for (int d = 0; d < rank_; ++d) n *= dims_[static_cast<std::size_t>(d)];
    return n;
  }

  /// Maps a possibly negative dim into [0, rank); throws kt::Error when out of range.
  int normalize_dim(int dim) const {
    const int d = dim < 0 ? dim + rank_ : dim;
    KT_REQUIRE(d >= 0 && d < rank_, "kt::Shape: dimension ", dim,
               " is out of range for shape ", str(), " (rank ", rank_, ")");
    return d;
  }

  /// Elements between consecutive entries of `dim` (row-major).
  std::int64_t stride(int dim) const {
    std::int64_t s = 1;
    for (int d = rank_ - 1; d > normalize_dim(dim); --d) s *= dims_[static_cast<std::size_t>(d)];
    return s;
  }

  std::vector<std::int64_t> dims() const { return {dims_.begin(), dims_.begin() + rank_}; }

  /// A copy with `dim` removed (for reductions).
  Shape without(int dim) const {
    const int d = normalize_dim(dim);
    std::vector<std::int64_t> out;
    for (int i = 0; i < rank_; ++i)
      if (i != d) out.push_back(dims_[static_cast<std::size_t>(i)]);
    return Shape(out);
  }

  /// A copy with extent `dim` replaced by `extent`.
  Shape with(int dim, std::int64_t extent) const {
    Shape out = *this;
    out.dims_[static_cast<std::size_t>(normalize_dim(dim))] = extent;
    return out;
  }

  std::string str() const {
    std::string s = "(";
    for (int d = 0; d < rank_; ++d) {
      if (d > 0) s += ", ";
      s += std::to_string(dims_[static_cast<std::size_t>(d)]);
    }
    return s + ")";
  }

  friend bool operator==(const Shape& a, const Shape& b) {
    if (a.rank_ != b.rank_) return false;
    for (int d = 0; d < a.rank_; ++d)
      if (a.dims_[static_cast<std::size_t>(d)] != b.dims_[static_cast<std::size_t>(d)]) return false;
    return true;
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Shape& s) { return os << s.str(); }

private:
  template <class It>
  void assign(It first, It last) {
    const auto rank = last - first;
    KT_REQUIRE(rank <= max_rank, "kt::Shape: rank ", rank, " exceeds the maximum of ", max_rank);
    rank_ = static_cast<int>(rank);
    std::int64_t numel = 1;
    for (int d = 0; first != last; ++first, ++d) {
      KT_REQUIRE(*first >= 0, "kt::Shape: negative extent ", *first, " in dimension ", d);
      KT_REQUIRE(*first == 0 || numel <= INT64_MAX / *first,
                 "kt::Shape: the number of elements overflows 64 bits");
      numel *= *first;
      dims_[static_cast<std::size_t>(d)] = *first;
    }
  }

  std::array<std::int64_t, max_rank> dims_{};
  int rank_ = 0;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
