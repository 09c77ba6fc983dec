#pragma once
// The checks of the CUDA adapter tests: plain programs rather than doctest (one is compiled by
// nvcc without Kokkos or kt's test main) that count checks and end by printing
// "N passed, M failed", which ctest's PASS_REGULAR_EXPRESSION reads.

#include <cstdio>
#include <string>

namespace kt_cuda_test {

inline int passed = 0, failed = 0;

/// Counts one check; prints what failed.
inline void check(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAILED: %s\n", what.c_str());
  }
}

/// Prints the tally; the program's exit status (0 when nothing failed).
inline int summary() {
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace kt_cuda_test
