// kt_compiled: the autograd engine (kt/autograd/impl/node.hpp, engine.hpp), autocast's
// differentiable casts (kt/autograd/var.hpp) and Var arithmetic (kt/autograd/impl/binary_grad.hpp).
#define KT_COMPILED_DEFINES_AUTOGRAD
#define KT_USES_INTERNALS
#include "kt/autograd/impl/binary_grad.hpp"
#include "kt/autograd/impl/engine.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/var.hpp"

KT_ETI_AUTOGRAD_NODE(template)
KT_ETI_AUTOGRAD_ENGINE(template)
KT_ETI_VAR(template)
KT_ETI_VAR_BINARY(template)
