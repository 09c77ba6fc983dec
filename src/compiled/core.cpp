// kt_compiled: the profiler (kt/core/profiler.hpp) with its reports (impl/profile_report.hpp), the
// atomic file writer (kt/core/atomic_file.hpp), device errors' text (impl/device_errors.hpp) and
// the JSON reader and writer of safetensors headers and checkpoint records (impl/json.hpp).
#define KT_COMPILED_DEFINES_CORE
#define KT_USES_INTERNALS
#include "kt/core/atomic_file.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/profiler.hpp"
#include "kt/core/synchronize.hpp"  // and so impl/device_errors.hpp
