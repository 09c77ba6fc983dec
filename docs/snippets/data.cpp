// The kt side of every snippet in docs/data.md, compiled and run by ctest ("docs: the
// snippets of data.md run", "docs: data.md shows the snippets of docs/snippets/data.cpp").
// A region between two `// [name]` lines is what data.md shows under `<!-- snippet: name -->`,
// without the indentation of its marker line; edit here, then copy into data.md (the second
// test fails until the two agree). The files it reads are small ones it writes first, in its
// working directory, in the formats of Fashion-MNIST and of a numeric CSV.

#include <kt/kt.hpp>

#include "run_page.hpp"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

namespace fashion_mnist_program {
// [fashion_mnist]
int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  const std::string dir = argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist/";   // apt-get install dataset-fashion-mnist

  // (60000, 28, 28) uint8 pixels, kept as bytes; labels as int64 class indices
  auto images = kt::read_idx<std::uint8_t>(dir + "train-images-idx3-ubyte.gz");
  auto labels = kt::read_idx<std::int64_t>(dir + "train-labels-idx1-ubyte.gz");
  // float inputs (x / 255 - 0.2860) / 0.3530, made while each batch is gathered; int64 targets
  kt::NormalizedDataset train(images.reshape({-1, 784}), labels, 1.0 / 255, kt::Normalize(0.2860, 0.3530));

  auto loader = kt::make_data_loader<D>(train, kt::DataLoaderOptions()
      .batch_size(256).shuffle(true).seed(0).num_workers(2).prefetch(4));
  kt::ProgressBar bar(loader.size(), kt::ProgressOptions().num_epochs(10));
  for (int epoch = 0; epoch < 10; ++epoch) {
    loader.set_epoch(epoch);
    bar.start_epoch(epoch);
    for (auto [x, y] : loader) {          // x: Tensor<float, D> (256, 784), y: Tensor<int64_t, D> (256)
      double loss = /* forward, backward, step */ 0;
      bar.step(x.size(0), loss);
    }
    bar.finish_epoch();
  }
  return 0;
}
// [fashion_mnist]
}  // namespace fashion_mnist_program

namespace {

constexpr std::int64_t kImages = 1024;

// An IDX file of uint8 elements, gzip-compressed as Fashion-MNIST's are.
void write_idx_gz(const std::string& path, const std::vector<std::int32_t>& dims, const std::vector<std::uint8_t>& data) {
  gzFile f = gzopen(path.c_str(), "wb");
  KT_REQUIRE(f != nullptr, "data: cannot write ", path);
  std::vector<unsigned char> bytes = {0, 0, 0x08, static_cast<unsigned char>(dims.size())};
  for (const std::int32_t d : dims)
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<unsigned char>(d >> shift));
  bytes.insert(bytes.end(), data.begin(), data.end());
  const bool written = gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size());
  KT_REQUIRE(gzclose(f) == Z_OK && written, "data: cannot write ", path);
}

void write_fashion_mnist_files() {
  std::vector<std::uint8_t> pixels(kImages * 28 * 28), labels(kImages);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i * 7 % 251);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<std::uint8_t>(i % 10);
  write_idx_gz("train-images-idx3-ubyte.gz", {static_cast<std::int32_t>(kImages), 28, 28}, pixels);
  write_idx_gz("train-labels-idx1-ubyte.gz", {static_cast<std::int32_t>(kImages)}, labels);
}

void end_to_end(const char* program) {
  std::string here = "./";
  char* args[] = {const_cast<char*>(program), here.data(), nullptr};
  int count = 2;
  KT_REQUIRE(fashion_mnist_program::main(count, args) == 0, "data: the Fashion-MNIST program failed");
}

// [custom_dataset]
struct Squares {                                    // any type of this form is a dataset
  std::int64_t size() const { return 100; }
  kt::Sample<float, float> get(std::int64_t i) const {
    return {kt::full<float, kt::Host>({1}, float(i)), kt::full<float, kt::Host>({}, float(i * i))};
  }
};
static_assert(kt::is_dataset_v<Squares>);
static_assert(std::is_same_v<kt::sample_t<Squares>, kt::Sample<float, float>>);
static_assert(std::is_same_v<kt::input_t<Squares>, float> && std::is_same_v<kt::target_t<Squares>, float>);
// [custom_dataset]

void custom_dataset() {
  auto loader = kt::make_data_loader<kt::DefaultDevice>(Squares(), kt::DataLoaderOptions().batch_size(10));
  const auto [x, y] = *loader.begin();
  const float sum = kt::sum(y).item();
  KT_REQUIRE(x.shape() == kt::Shape({10, 1}) && sum == 285.0f, "data: the first batch of Squares is ", x.shape(),
             " with targets summing to ", sum);
  static_assert(!kt::has_gather_v<Squares>);
}

void transforms() {
  // [transforms]
  kt::TensorDataset images(kt::rand<float, kt::Host>({1000, 28, 28}, /*seed=*/0),
                           kt::randint<std::int64_t, kt::Host>(0, 10, {1000}, /*seed=*/1));
  kt::Normalize normalize(0.2860, 0.3530);
  auto normalized = kt::map_inputs(images, normalize);         // a kt::MapDataset: per sample, as read
  auto relabelled = kt::map_samples(images, [](kt::Sample<float, std::int64_t> s) {
    s.target = kt::full<std::int64_t, kt::Host>({}, 9 - s.target.item());   // Sample -> Sample
    return s;
  });
  auto loader = kt::make_data_loader<kt::DefaultDevice>(images, kt::DataLoaderOptions().batch_size(100).num_workers(1));
  kt::BatchTransform<float, std::int64_t> per_batch = [normalize](kt::Tensor<float, kt::Host>& x,
                                                                  kt::Tensor<std::int64_t, kt::Host>&) {
    normalize.apply_(x);                // in place on the fresh host batch, in the worker
    x = kt::Flatten(1)(x);              // (100, 28, 28) -> (100, 784), a view
  };
  loader.set_batch_transform(per_batch);
  // [transforms]
  const float difference =
      kt::max(kt::abs(normalized.get(3).input - normalize(images.get(3).input))).item();
  KT_REQUIRE(difference == 0.0f, "data: map_inputs differs from Normalize by ", difference);
  KT_REQUIRE(relabelled.get(3).target.item() == 9 - images.get(3).target.item(), "data: map_samples did not relabel");
  const auto [x, y] = *loader.begin();
  KT_REQUIRE(x.shape() == kt::Shape({100, 784}), "data: the transformed batch has shape ", x.shape());
}

void samplers() {
  // [samplers]
  kt::Sampler in_order = kt::sequential_sampler();         // 0, 1, ..., size-1 every epoch
  kt::Sampler shuffled = kt::random_sampler(/*seed=*/0);    // a permutation that depends on (seed, epoch) only
  std::vector<std::int64_t> order = shuffled(10, /*epoch=*/3);
  auto options = kt::DataLoaderOptions().shuffle(true).seed(0);
  kt::Sampler used = options.effective_sampler();          // the sampler(...) given, else one of the two above
  // [samplers]
  KT_REQUIRE(used(10, 3) == order, "data: effective_sampler() is not random_sampler(seed)");
  KT_REQUIRE(in_order(3, 5) == std::vector<std::int64_t>({0, 1, 2}), "data: sequential_sampler is not 0, 1, 2");
}

void idx_options(const std::string& path) {
  // [idx_options]
  auto images = kt::read_idx(path, kt::IdxOptions()
      .rank(3)                                  // require (N, H, W); default 0 = any rank
      .max_bytes(std::int64_t{4} << 30)         // element data a header may claim; default 2 GiB
      .allow_empty(false));                     // zero-extent dimensions; default false
  // [idx_options]
  KT_REQUIRE(images.shape() == kt::Shape({kImages, 28, 28}), "data: read_idx gave shape ", images.shape());
}

void csv(const std::string& path) {
  // [csv]
  auto csv = kt::read_csv(path, kt::CsvOptions().label_column("species"));   // kt::CsvData<std::int64_t>
  std::cout << csv.inputs.shape() << " features (" << csv.columns[0] << ", ...), "
            << csv.targets.shape() << " labels from '" << csv.target_column << "'\n";
  kt::TensorDataset data = csv.dataset();                                     // TensorDataset<float, int64_t>
  // [csv]
  KT_REQUIRE(data.size() == 3 && csv.inputs.shape() == kt::Shape({3, 2}) && csv.targets.to_vector()[2] == 2,
             "data: read_csv read ", csv.inputs.shape(), " and ", csv.targets);
}

template <class Dataset>
void dataloader_options(const Dataset& dataset) {
  kt::Sampler f = kt::random_sampler(7);
  // [dataloader_options]
  auto options = kt::DataLoaderOptions()
      .batch_size(256)   // default 1
      .shuffle(true)     // seeded random order, a new one every epoch (default false)
      .seed(0)           // explicit seed (default 0)
      .drop_last(false)  // drop a short last batch (default false)
      .num_workers(2)    // background threads; 0 collates in the loop's thread (default 0)
      .prefetch(4)       // batches prepared ahead, queued or in progress (default 2, at least num_workers)
      .pin_memory(true)  // pinned staging for GPUs (default true; ignored for host devices)
      .sampler(f);       // (size, epoch) -> indices, overrides shuffle
  kt::DataLoader<kt::DefaultDevice, float, std::int64_t> loader(dataset, options);
  auto same = kt::make_data_loader<kt::DefaultDevice>(dataset, options);   // X, Y deduced
  // [dataloader_options]
  std::int64_t batches = 0;
  for (auto [x, y] : same) batches += x.size(0) > 0 ? 1 : 0;
  KT_REQUIRE(batches == loader.size() && loader.size() == 4, "data: ", batches, " batches of ", loader.size());
}

void progress() {
  const std::int64_t total_steps = 235, samples = 256;
  const int e = 2;
  const double loss = 0.4321;
  // [progress]
  kt::ProgressBar bar(total_steps, kt::ProgressOptions().num_epochs(10)
                                      .redraw_interval(0.1)    // terminal redraw limit, seconds
                                      .line_interval(5));      // plain-line period, seconds
  bar.start_epoch(e);  bar.step(samples, loss);  bar.finish_epoch();
  // epoch 3/10  120/235  loss 0.4321  51234 samples/s  ETA 1.2 s
  // [progress]
  KT_REQUIRE(bar.steps() == 1 && bar.mean_loss() == loss, "data: the bar counted ", bar.steps(), " steps, mean loss ",
             bar.mean_loss());
}

void write_csv(const std::string& path) {
  std::ofstream out(path);
  out << "sepal_length,species,sepal_width\n5.1,0,3.5\n6.2,1,2.9\n7.7,2,3.0\n";
  KT_REQUIRE(out.good(), "data: cannot write ", path);
}

}  // namespace

int main(int argc, char* argv[]) {
  const int status = kt_docs::run_page(argc, argv, "data.md", [&] {
    write_fashion_mnist_files();
    write_csv("iris.csv");
    end_to_end(argv[0]);
    custom_dataset();
    transforms();
    samplers();
    idx_options("train-images-idx3-ubyte.gz");
    csv("iris.csv");
    dataloader_options(kt::NormalizedDataset(kt::read_idx("train-images-idx3-ubyte.gz").reshape({-1, 784}),
                                             kt::read_idx<std::int64_t>("train-labels-idx1-ubyte.gz"), 1.0 / 255,
                                             kt::Normalize(0.2860, 0.3530)));
    progress();
  });
  std::remove("train-images-idx3-ubyte.gz");
  std::remove("train-labels-idx1-ubyte.gz");
  std::remove("iris.csv");
  return status;
}
