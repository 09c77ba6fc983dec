// The kt side of every snippet in docs/inference.md, compiled and run by ctest ("docs: the
// snippets of inference.md run", "docs: inference.md shows the snippets of
// docs/snippets/inference.cpp"). A region between two `// [name]` lines is what inference.md
// shows under `<!-- snippet: name -->`, without the indentation of its marker line; edit here,
// then copy into inference.md (the second test fails until the two agree). The files it
// writes go to its working directory.

#include <kt/io/module_io.hpp>
#include <kt/io/safetensors.hpp>
#include <kt/kt.hpp>

#include "run_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

using D = kt::DefaultDevice;

// A surrogate of 2 inputs and 1 output; `seed` stands for training.
kt::nn::Sequential<float, D> make_surrogate(std::uint64_t seed = 1) {
  using kt::nn::LinearOptions;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(LinearOptions(2, 32).activation(kt::Activation::Tanh).seed(seed)));
  model.push_back(kt::nn::Linear<float, D>(LinearOptions(32, 32).seed(seed + 1)));
  model.push_back(kt::nn::GELU<float, D>());
  model.push_back(kt::nn::Linear<float, D>(LinearOptions(32, 1).seed(seed + 2)));
  return model;
}

// model(points) under no-grad: the reference the evaluators must agree with.
std::vector<float> batched(kt::nn::Sequential<float, D>& model, const kt::Tensor<float, D>& points) {
  kt::NoGradGuard no_grad;
  return model(points).data().to_vector();
}

void require_close(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  KT_REQUIRE(got.size() == want.size(), "inference: ", what, " gave ", got.size(), " values, not ", want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(double(got[i]) - double(want[i])) / std::max(1.0, std::abs(double(want[i]))));
  KT_REQUIRE(worst <= 1e-5, "inference: ", what, " differs from model(x) by ", worst);
}

}  // namespace

// Outside the anonymous namespace: nvcc wants an extended lambda's enclosing function to
// have external linkage.
void per_thread() {
  auto model = make_surrogate();
  const int n = 64;
  const auto xt = kt::rand<float, D>({n, n}, /*seed=*/2, -1, 1), yt = kt::rand<float, D>({n, n}, /*seed=*/3, -1, 1);
  auto st = kt::empty<float, D>({n, n});
  const auto x = xt.view<2>(), y = yt.view<2>(), source = st.view<2>();
  // [per_thread]
  kt::nn::PackedMLP<float, D> packed(model);          // model: a trained Sequential<T, any device>
  const auto mlp = packed.evaluator();                 // MLPEvaluator<float, 128, 8>
  Kokkos::parallel_for("my_app::step", Kokkos::MDRangePolicy<D, Kokkos::Rank<2>>({0, 0}, {n, n}),
                       KOKKOS_LAMBDA(int i, int j) {
    const float in[2] = {x(i, j), y(i, j)};
    float out[1];
    mlp(in, out);                                      // out[0..out_features) from in[0..in_features)
    source(i, j) = out[0];
  });
  // [per_thread]
  const auto xs = xt.to_vector(), ys = yt.to_vector();
  std::vector<float> points;
  for (std::size_t k = 0; k < xs.size(); ++k) points.insert(points.end(), {xs[k], ys[k]});
  require_close(st.to_vector(), batched(model, kt::from_host<float, D>(points.data(), {n * n, 2})),
                "the per-thread evaluator");
}

void team() {
  auto model = make_surrogate();
  const int n = 1000, n_in = 2, n_out = 1;
  const auto points = kt::rand<float, D>({n, n_in}, /*seed=*/4, -1, 1);
  auto results = kt::empty<float, D>({n, n_out});
  const float* in = points.data();
  float* out = results.data();
  kt::nn::PackedMLP<float, D> packed(model);
  const auto mlp = packed.evaluator();
  // [team]
  using Policy = Kokkos::TeamPolicy<D>;
  using Scratch = Kokkos::View<float*, typename D::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const int per_team = 256;
  Policy policy((n + per_team - 1) / per_team, Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(mlp.scratch_bytes(per_team)));
  Kokkos::parallel_for("my_app::batch", policy, KOKKOS_LAMBDA(const Policy::member_type& team) {
    const int first = team.league_rank() * per_team;
    const int count = n - first < per_team ? n - first : per_team;
    Scratch scratch(team.team_scratch(0), mlp.scratch_floats(per_team));
    mlp(team, in + first * n_in, out + first * n_out, count, scratch.data());   // every thread calls it
  });
  // [team]
  require_close(results.to_vector(), batched(model, points), "the team evaluator");
}

namespace {

void load_weights() {
  auto model = make_surrogate();
  // [load_weights]
  kt::io::save(model, "surrogate.safetensors");                   // where it was trained
  // ... in the simulation:
  kt::nn::Sequential<float, D> fresh = make_surrogate(/*seed=*/7);   // the same layers
  kt::io::LoadResult r = kt::io::load(fresh, "surrogate.safetensors", /*strict=*/false);
  for (const auto& key : r.missing) std::cerr << "not in the file: " << key << "\n";   // r.unexpected, r.mismatched
  if (!r.ok()) return;
  kt::nn::PackedMLP<float, D> packed(fresh);
  // [load_weights]
  const auto points = kt::rand<float, D>({100, 2}, /*seed=*/5);
  require_close(batched(fresh, points), batched(model, points), "the loaded model");
  std::remove("surrogate.safetensors");
}

void safetensors_files() {
  // [safetensors_files]
  kt::io::NamedTensors tensors;                                   // any dtypes and devices
  tensors.add("grid", kt::linspace<float, D>(-1, 1, 64))
         .add("table", kt::randn<double, kt::Host>({64, 64}, /*seed=*/0))
         .add("steps", kt::full<std::int64_t, kt::Host>({}, 100));
  kt::io::save_safetensors("tables.safetensors", tensors, {{"units", "K"}});   // atomic, XXH64 checksums

  const kt::io::SafetensorsFile file = kt::io::load_safetensors(
      "tables.safetensors", kt::io::SafetensorsOptions().max_header_bytes(1 << 20));   // larger claims refused
  for (const auto& name : file.names())                           // in file order
    std::cout << name << ": " << file.dtype(name) << " " << file.shape(name)
              << (file.has_checksum(name) ? ", verified when read" : "") << "\n";
  auto table = file.get<double, D>("table");                      // read now; the dtype must be F64
  if (file.contains("steps")) std::cout << file.get<std::int64_t>("steps").item() << " steps\n";
  std::cout << "units: " << file.metadata().at("units") << "\n";
  // [safetensors_files]
  KT_REQUIRE(table.shape() == kt::Shape({64, 64}) && file.has_checksum("grid") && file.dtype("grid") == "F32",
             "inference: tables.safetensors holds ", file.dtype("grid"), " ", table.shape());
  std::remove("tables.safetensors");
}

void atomic_files() {
  const auto table = kt::randn<float, kt::Host>({64, 64}, /*seed=*/0);
  // [atomic_files]
  kt::write_file_atomically_with("table.csv", [&](auto&& write) {   // write(data, bytes) appends
    for (const float v : table.to_vector()) {
      const std::string line = std::to_string(v) + "\n";
      write(line.data(), line.size());
    }
  });                                                              // renamed over table.csv when complete
  kt::write_file_atomically("run.json", "{\"steps\": 100}\n");     // the whole contents at once
  // [atomic_files]
  std::ifstream written("table.csv");
  std::int64_t lines = 0;
  for (std::string line; std::getline(written, line);) ++lines;
  KT_REQUIRE(lines == 64 * 64, "inference: table.csv has ", lines, " lines");
  std::remove("table.csv");
  std::remove("run.json");
}

}  // namespace

int main(int argc, char* argv[]) {
  return kt_docs::run_page(argc, argv, "inference.md", [&] {
    per_thread();
    team();
    load_weights();
    safetensors_files();
    atomic_files();
  });
}
