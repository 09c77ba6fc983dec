// kt_compiled: the modules (kt/nn/module.hpp, sequential.hpp, linear.hpp, activation.hpp).
#define KT_COMPILED_DEFINES_NN
#include "kt/nn/activation.hpp"
#include "kt/nn/linear.hpp"
#include "kt/nn/module.hpp"
#include "kt/nn/sequential.hpp"

KT_ETI_MODULE(template)
KT_ETI_SEQUENTIAL(template)
KT_ETI_NN_LINEAR(template)
KT_ETI_ACTIVATION_LAYERS(template)
