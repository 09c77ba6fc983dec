// examples/fashion_mnist/layers.hpp: the headers of the model's layers, and the macro that
// names their explicit instantiations (layers.cpp and train_device.cpp compile them, train.cpp
// declares them extern).
#pragma once

#include <kt/nn/linear.hpp>
#include <kt/nn/sequential.hpp>

// The model's layers on device D, named by kt_compiled's lists of explicit instantiations
// (KT_ETI_*_ONE, beside each class in kt/nn/; kt/core/impl/compiled.hpp describes the scheme),
// virtual members included. Header-only, one file compiles them (KW = template) and train.cpp
// declares them extern (KW = extern template), so that the two compile in parallel:
// - a build with one device: layers.cpp, the host pool's (FASHION_MNIST_LAYERS_FILE);
// - a build with a second device: train_device.cpp, with that device's training
//   (FASHION_MNIST_DEVICE_FILE). A module on the host pool can move to the default device at
//   run time (kt::nn::Module::rebuild_on), so train.cpp would otherwise compile a copy of every
//   layer for that device too.
#define FASHION_MNIST_LAYERS(D, KW)   \
  KT_ETI_MODULE_ONE(float, D, KW)     \
  KT_ETI_NN_LINEAR_ONE(float, D, KW)  \
  KT_ETI_SEQUENTIAL_ONE(float, D, KW)
