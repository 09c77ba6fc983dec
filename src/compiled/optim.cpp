// kt_compiled: the optimizers (kt/optim/optimizer.hpp, sgd.hpp, adam.hpp, adamw.hpp).
#define KT_COMPILED_DEFINES_OPTIM
#include "kt/optim/adam.hpp"
#include "kt/optim/adamw.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/optim/sgd.hpp"

KT_ETI_OPTIMIZER(template)
KT_ETI_SGD(template)
KT_ETI_ADAM(template)
KT_ETI_ADAMW(template)
