// kt_compiled: kt::Tensor's out-of-class members (kt/tensor/impl/tensor_impl.hpp).
#define KT_COMPILED_DEFINES_TENSOR
#include "kt/tensor/tensor.hpp"

KT_ETI_TENSOR(template)
