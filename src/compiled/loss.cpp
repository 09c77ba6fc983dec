// kt_compiled: the cross-entropy's kernels and the class losses' reduction
// (kt/tensor/impl/cross_entropy_impl.hpp, class_loss_reduce.hpp).
#define KT_COMPILED_DEFINES_LOSS
#define KT_USES_INTERNALS
#include "kt/tensor/impl/class_loss_reduce.hpp"
#include "kt/tensor/impl/cross_entropy_impl.hpp"

KT_ETI_CLASS_LOSS(template)
KT_ETI_CROSS_ENTROPY(template)
