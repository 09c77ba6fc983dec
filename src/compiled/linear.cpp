// kt_compiled: the fused Linear passes (kt/tensor/linear.hpp) and their 16-bit form inside an
// autocast region (kt/functional/impl/linear_node.hpp).
#define KT_COMPILED_DEFINES_LINEAR
#include "kt/functional/linear.hpp"

KT_ETI_LINEAR(template)
KT_ETI_AUTOCAST_LINEAR(template)
