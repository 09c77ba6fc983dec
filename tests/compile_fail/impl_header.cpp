// An impl header included by user code, after a public one: kt refuses it (its impl/ folders
// are not API). The fixed variant says it uses kt's internals on purpose.
#ifdef KT_COMPILE_FAIL_FIXED
#define KT_USES_INTERNALS
#endif
#include <kt/tensor/tensor.hpp>
#include <kt/tensor/impl/philox.hpp>

int main() { return kt::Tensor<float, Kokkos::Serial>().defined() ? 1 : 0; }
