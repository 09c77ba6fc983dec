#pragma once
/// \file kt/autograd/ops.hpp
/// Every differentiable op on kt::Var, in one include.
#include "kt/autograd/dropout.hpp"
#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/function.hpp"
#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/layer_norm.hpp"
#include "kt/autograd/linear.hpp"
#include "kt/autograd/matmul.hpp"
#include "kt/autograd/reduce.hpp"
#include "kt/autograd/shape_ops.hpp"
#include "kt/autograd/softmax.hpp"
#include "kt/autograd/unary.hpp"
#include "kt/autograd/var.hpp"
