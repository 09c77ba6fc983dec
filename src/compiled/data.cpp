// kt_compiled: the IDX reader (kt/data/impl/idx_impl.hpp).
#define KT_COMPILED_DEFINES_DATA
#include "kt/data/idx.hpp"

KT_ETI_IDX(template)
