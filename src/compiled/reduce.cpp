// kt_compiled: the reductions (kt/tensor/reduce.hpp).
#define KT_COMPILED_DEFINES_REDUCE
#include "kt/tensor/reduce.hpp"

KT_ETI_REDUCE(template)
