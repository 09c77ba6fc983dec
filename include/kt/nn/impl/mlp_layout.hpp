#pragma once
// Where each layer of a kt::nn::PackedMLP lives in its one packed buffer: what PackedMLP
// records and kt::nn::MLPEvaluator copies into its fixed-size arrays.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/activation.hpp"

#include <cstddef>
#include <cstdint>

namespace kt::impl {

/// One Linear layer (with the activation applied to its output) of a packed MLP.
struct MLPLayer {
  int in = 0;                       ///< input features
  int out = 0;                      ///< output features
  int ld = 0;                       ///< out rounded up to kMLPPad: the row stride of the weights
  std::int64_t weight_offset = 0;   ///< elements from the buffer start to Wt[0][0] (Wt is in x ld)
  std::int64_t bias_offset = 0;     ///< elements from the buffer start to b[0] (ld of them)
  Activation act = Activation::Identity;
  std::size_t module = 0;           ///< index of the Linear in the Sequential (for messages)
};

}  // namespace kt::impl
