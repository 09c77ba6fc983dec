// examples/fashion_mnist/layers.cpp: the model's layers on the host pool, in header-only builds
// with one device, which train.cpp declares extern, so that the two compile in parallel
// (layers.hpp says how, CMakeLists.txt when). It includes the layers' headers alone.

#include "layers.hpp"

FASHION_MNIST_LAYERS(kt::Host, template)
