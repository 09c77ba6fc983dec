// kt_compiled: the GEMM dispatch (kt/backend/impl/gemm_dispatch.hpp, kt/backend/impl/gemm_pair.hpp)
// and the tuning statistics (kt/backend/tuning.hpp).
#define KT_COMPILED_DEFINES_GEMM
#include "kt/backend/gemm.hpp"
#include "kt/backend/tuning.hpp"

KT_ETI_GEMM(template)
KT_ETI_GEMM_PAIR(template)
