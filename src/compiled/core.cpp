// kt_compiled: the profiler's reports (kt/core/impl/profile_report.hpp) and the atomic file
// writer (kt/core/atomic_file.hpp).
#define KT_COMPILED_DEFINES_CORE
#include "kt/core/atomic_file.hpp"
#include "kt/core/profiler.hpp"
