// Must not compile: a DataLoader whose X/Y do not match the dataset's samples. Fixed: let
// kt::make_data_loader deduce them.
#include <kt/kt.hpp>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  kt::TensorDataset data(kt::zeros<double, kt::Host>({8, 2}), kt::zeros<std::int64_t, kt::Host>({8}));
#if defined(KT_COMPILE_FAIL_FIXED)
  auto loader = kt::make_data_loader<kt::Serial>(data, kt::DataLoaderOptions().batch_size(4));
#else
  kt::DataLoader<kt::Serial, float, std::int64_t> loader(data, kt::DataLoaderOptions().batch_size(4));
#endif
  return loader.size() == 2 ? 0 : 1;
}
