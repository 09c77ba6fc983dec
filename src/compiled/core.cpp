// kt_compiled: the profiler (kt/core/profiler.hpp) with its reports (impl/profile_report.hpp), the
// atomic file writer (kt/core/atomic_file.hpp) and device errors' text (impl/device_errors.hpp).
#define KT_COMPILED_DEFINES_CORE
#include "kt/core/atomic_file.hpp"
#include "kt/core/profiler.hpp"
#include "kt/core/synchronize.hpp"  // and so impl/device_errors.hpp
