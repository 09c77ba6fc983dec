#pragma once
/// \file kt/dist/print.hpp
/// Printing once per job instead of once per rank: `print0` writes on rank 0 of the world only
/// (a line, flushed); `print_all` prefixes every rank's line with "[rank r] ".
///
///     kt::dist::print0("epoch ", epoch, ": loss ", loss);      // once
///     kt::dist::print_all("shard of ", n, " samples");         // once per rank

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/concat.hpp"
#include "kt/dist/environment.hpp"

#include <iostream>

namespace kt::dist {

template <class... Args>
void print0(const Args&... args) {
  if (world().rank() == 0) std::cout << impl::concat(args...) << std::endl;
}

template <class... Args>
void print_all(const Args&... args) {
  std::cout << impl::concat("[rank ", world().rank(), "] ", args...) << std::endl;
}

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
