// kt_compiled: the arithmetic kernels of floating tensors (kt/tensor/impl/map.hpp) and the
// broadcast gradients' pair (kt/tensor/impl/broadcast_grad.hpp).
#define KT_COMPILED_DEFINES_ELEMENTWISE
#define KT_USES_INTERNALS
#include "kt/tensor/impl/broadcast_grad.hpp"
#include "kt/tensor/impl/map.hpp"

KT_ETI_BINARY(template)
KT_ETI_BROADCAST_GRAD(template)
