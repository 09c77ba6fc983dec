#pragma once
/// \file kt/functional/functional.hpp
/// Every differentiable composite function (`torch.nn.functional`), in one include.
#include "kt/core/impl/public_begin.hpp"

#include "kt/functional/activation.hpp"
#include "kt/functional/cross_entropy.hpp"
#include "kt/functional/dropout.hpp"
#include "kt/functional/layer_norm.hpp"
#include "kt/functional/linear.hpp"
#include "kt/functional/mse_loss.hpp"
#include "kt/functional/nll_loss.hpp"
#include "kt/functional/reduction.hpp"
#include "kt/functional/softmax.hpp"

#include "kt/core/impl/public_end.hpp"
