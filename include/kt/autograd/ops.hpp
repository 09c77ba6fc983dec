#pragma once
/// \file kt/autograd/ops.hpp
/// Var, the autograd engine and the differentiable mirror of the tensor ops, in one include
/// (composite functions — linear, softmax, losses, ... — are in kt/functional/functional.hpp).
#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/function.hpp"
#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/matmul.hpp"
#include "kt/autograd/reduce.hpp"
#include "kt/autograd/shape_ops.hpp"
#include "kt/autograd/unary.hpp"
#include "kt/autograd/var.hpp"

#include "kt/core/impl/public_end.hpp"
