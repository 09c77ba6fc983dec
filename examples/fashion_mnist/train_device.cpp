// examples/fashion_mnist/train_device.cpp: the training (train.hpp) on kt::DefaultDevice where
// that is not the host pool: the GPU in a Cuda build (and OpenMP beside a Serial kt::Host under
// KT_DISTINCT_HOST_DEVICE), in header-only builds. A file of its own, so that it compiles in
// parallel with the host pool's in train.cpp (CMakeLists.txt says when this pays); it also
// instantiates that device's layers, which train.cpp declares extern (train.hpp says why).

#include "train.hpp"

#include <type_traits>

static_assert(!std::is_same_v<kt::DefaultDevice, kt::Host>,
              "train_device.cpp is for builds whose default device is not kt::Host; CMakeLists.txt adds it to those only");

namespace fashion_mnist {

template int run<kt::DefaultDevice>(Config, const std::string&, const Ranks&);

}  // namespace fashion_mnist

FASHION_MNIST_LAYERS(kt::DefaultDevice, template)
