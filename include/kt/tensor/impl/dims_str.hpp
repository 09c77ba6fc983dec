#pragma once
// "(2, -1, 4)": a list of extents or dimensions for error messages (it may not form a valid
// Shape).

#include "kt/core/impl/internal.hpp"

#include <string>
#include <vector>

namespace kt::impl {

template <class I>
std::string dims_str(const std::vector<I>& dims) {
  std::string s = "(";
  for (std::size_t d = 0; d < dims.size(); ++d) s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + ")";
}

}  // namespace kt::impl
