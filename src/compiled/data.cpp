// kt_compiled: the IDX reader (kt/data/impl/idx_impl.hpp) and the data loaders of the common
// samples (kt/data/dataloader.hpp).
#define KT_COMPILED_DEFINES_DATA
#include "kt/data/dataloader.hpp"
#include "kt/data/idx.hpp"

KT_ETI_IDX(template)
KT_ETI_DATALOADER(template)
