#pragma once
/// \file kt/nn/nn.hpp
/// Every layer, loss module and initialiser of kt::nn, in one include.
#include "kt/core/impl/public_begin.hpp"

#include "kt/nn/activation.hpp"
#include "kt/nn/dropout.hpp"
#include "kt/nn/flatten.hpp"
#include "kt/nn/init.hpp"
#include "kt/nn/layer_norm.hpp"
#include "kt/nn/linear.hpp"
#include "kt/nn/loss.hpp"
#include "kt/nn/mlp_evaluator.hpp"
#include "kt/nn/module.hpp"
#include "kt/nn/packed_mlp.hpp"
#include "kt/nn/sequential.hpp"
#include "kt/nn/softmax.hpp"
#include "kt/nn/to_device.hpp"

#include "kt/core/impl/public_end.hpp"
