// kt_compiled: the GEMM dispatch (kt/backend/impl/gemm_dispatch.hpp).
#define KT_COMPILED_DEFINES_GEMM
#include "kt/backend/gemm.hpp"

KT_ETI_GEMM(template)
