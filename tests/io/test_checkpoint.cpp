// kt::io::Checkpoint: a run (model with Dropout, optimizer, scheduler, loader, generator,
// GradScaler)
// saved, restored into fresh objects and continued gives bit-identical results to the run
// that never stopped; the file uses PyTorch's names; mixed dtypes in one file; and every
// way a checkpoint can lie is a kt::Error that leaves the component as it was.

#include "kt_test.hpp"
#include "io/io_files.hpp"

#include <kt/io/checkpoint.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/adamw.hpp>
#include <kt/optim/sgd.hpp>
#include <kt/optim/step_lr.hpp>
#include <nlohmann/json.hpp>  // an independent reader of what kt writes

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace kt_test::io_files;

namespace {

template <class D>
kt::nn::Sequential<float, D> net() {
  kt::nn::Sequential<float, D> m;
  m.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(4, 16).activation(kt::Activation::ReLU).seed(1)));
  m.push_back(kt::nn::Dropout<float, D>(kt::nn::DropoutOptions(0.25).seed(9)));
  m.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(16, 2).seed(2)));
  return m;
}

/// A training run small enough for a test: 40 samples, batches of 8, shuffled.
template <class D>
struct Run {
  kt::nn::Sequential<float, D> model = net<D>();
  kt::optim::Adam<float, D> opt{model.parameters(), kt::optim::AdamOptions(1e-2).amsgrad(true)};
  kt::optim::StepLR sched{opt, 2, 0.5};
  kt::DataLoader<D, float, float> loader{
      kt::TensorDataset(kt::randn<float, kt::Host>({40, 4}, 5), kt::randn<float, kt::Host>({40, 2}, 6)),
      kt::DataLoaderOptions().batch_size(8).shuffle(true).seed(3)};
  kt::Generator noise{11};  // the run's own draws (e.g. input noise)
  kt::amp::GradScaler scaler{kt::amp::GradScalerOptions().init_scale(1024).growth_interval(3)};

  void epoch() {
    for (auto [x, y] : loader) {
      opt.zero_grad();
      const kt::Tensor<float, D> noisy = x + kt::randn<float, D>(x.shape(), noise) * 0.01f;
      scaler.scale(kt::mse_loss(model(noisy), y)).backward();
      scaler.step(opt);
      scaler.update();
    }
    sched.step();
  }
  kt::io::Checkpoint checkpoint() const {
    return kt::io::Checkpoint().add("model", model).add("optimizer", opt).add("scheduler", sched).add("loader", loader).add("rng", noise).add("scaler", scaler);
  }
  void restore(const kt::io::CheckpointFile& f) {
    f.restore("model", model);
    f.restore("optimizer", opt);
    f.restore("scheduler", sched);
    f.restore("loader", loader);
    f.restore("rng", noise);
    f.restore("scaler", scaler);
  }
};

using kt_test::bit_equal;

template <class D>
void check_same_run(Run<D>& a, Run<D>& b) {
  const auto pa = a.model.parameters(), pb = b.model.parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    CHECK(bit_equal(pa[i].data(), pb[i].data()));
    CHECK(a.opt.state(i).step == b.opt.state(i).step);
    for (const auto& [key, t] : a.opt.state(i).tensors) CHECK(bit_equal(t, b.opt.state(i).at(key)));
  }
  CHECK(a.opt.lr() == b.opt.lr());
  CHECK(a.loader.epoch() == b.loader.epoch());
  CHECK(a.noise.offset() == b.noise.offset());
  CHECK(a.scaler.get_scale() == b.scaler.get_scale());
  CHECK(a.scaler.state_dict().growth_tracker == b.scaler.state_dict().growth_tracker);
}

}  // namespace

TEST_CASE_TEMPLATE("a checkpointed run continues bit-identically to the run that never stopped", D, KT_DEVICES) {
  Run<D> straight;
  for (int e = 0; e < 3; ++e) straight.epoch();

  Run<D> first;
  first.epoch();
  first.checkpoint().set("epoch", "1").save(scratch("run.safetensors"));

  Run<D> resumed;  // a fresh run: other values everywhere until restored
  const auto saved = kt::io::load_checkpoint(scratch("run.safetensors"));
  CHECK(saved.get("epoch") == "1");
  resumed.restore(saved);
  check_same_run(first, resumed);
  resumed.epoch();
  resumed.epoch();
  check_same_run(straight, resumed);
  // Without the restore the run differs (the test can fail).
  Run<D> not_restored;
  not_restored.epoch();
  not_restored.epoch();
  CHECK_FALSE(bit_equal(not_restored.model.parameters()[0].data(), straight.model.parameters()[0].data()));
}

TEST_CASE("a checkpoint's tensors and records carry PyTorch's names") {
  Run<kt::Host> run;
  run.epoch();
  run.checkpoint().save(scratch("names.safetensors"));
  const auto file = kt::io::load_safetensors(scratch("names.safetensors"));
  CHECK(file.metadata().at("format") == "pt");
  const auto names = file.names();
  for (const char* n : {"model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias", "optimizer.state.0.step",
                        "optimizer.state.0.exp_avg", "optimizer.state.0.exp_avg_sq", "optimizer.state.0.max_exp_avg_sq",
                        "optimizer.state.3.exp_avg"})
    CHECK_MESSAGE(std::find(names.begin(), names.end(), n) != names.end(), n);
  CHECK(file.dtype("optimizer.state.0.step") == "F32");  // as PyTorch's Adam keeps it
  CHECK(file.shape("optimizer.state.0.step").rank() == 0);
  CHECK(file.get<float>("optimizer.state.0.step").item() == 5.0f);  // 40 samples / 8
  const auto opt = nlohmann::json::parse(file.metadata().at("optimizer"));
  CHECK(opt["type"] == "kt::optim::Adam");
  CHECK(opt["param_groups"][0]["lr"] == 1e-2);
  CHECK(opt["param_groups"][0]["params"] == nlohmann::json({0, 1, 2, 3}));
  const auto sched = nlohmann::json::parse(file.metadata().at("scheduler"));
  CHECK(sched["last_epoch"] == 1);
  CHECK(sched["base_lrs"] == nlohmann::json({1e-2}));
  CHECK(nlohmann::json::parse(file.metadata().at("model"))["generators"]["1"]["offset"] == 5);  // 5 Dropout draws
  CHECK(nlohmann::json::parse(file.metadata().at("loader"))["epoch"] == 1);
  const auto scaler = nlohmann::json::parse(file.metadata().at("scaler"));  // torch's GradScaler.state_dict()
  CHECK(scaler["scale"] == 2048.0);  // grown once after 3 of the 5 clean steps
  CHECK(scaler["_growth_tracker"] == 2);
  CHECK(scaler["growth_interval"] == 3);
}

TEST_CASE_TEMPLATE("NamedTensors mixes dtypes in one file, from any device", D, KT_DEVICES) {
  kt::io::NamedTensors t;
  t.add("f", kt::arange<float, D>(0, 6).reshape({2, 3}))
      .add("i", kt::full<std::int64_t, kt::Host>({}, std::int64_t(1) << 40))
      .add("b", kt::full<kt::bfloat16, D>({3}, kt::bfloat16(1.5f)))
      .add("u", kt::full<std::uint8_t, kt::Host>({2, 0}, std::uint8_t(1)));
  kt::io::save_safetensors(scratch("mixed.safetensors"), t);
  const auto file = kt::io::load_safetensors(scratch("mixed.safetensors"));
  CHECK(file.names() == std::vector<std::string>{"f", "i", "b", "u"});
  CHECK(file.get<float, D>("f").to_vector() == std::vector<float>{0, 1, 2, 3, 4, 5});
  CHECK(file.get<std::int64_t>("i").item() == std::int64_t(1) << 40);
  CHECK(static_cast<float>(file.get<kt::bfloat16, D>("b").to_vector()[2]) == 1.5f);
  CHECK(file.shape("u") == kt::Shape{2, 0});
  CHECK(kt_test::error_of([&] { t.add("f", kt::ones<float, kt::Host>({1})); }) ==
        "kt::io::NamedTensors::add: the name 'f' appears twice");
}

TEST_CASE("SGD's and AdamW's state round-trips too (momentum buffers, no step for SGD)") {
  auto model = net<kt::Host>();
  kt::optim::SGD<float, kt::Host> sgd(model.parameters(), kt::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  const auto x = kt::randn<float, kt::Host>({8, 4}, 1), y = kt::randn<float, kt::Host>({8, 2}, 2);
  kt::mse_loss(model(x), y).backward();
  sgd.step();
  kt::io::Checkpoint().add("sgd", sgd).save(scratch("sgd.safetensors"));
  const auto file = kt::io::load_checkpoint(scratch("sgd.safetensors"));
  CHECK_FALSE(file.file().contains("sgd.state.0.step"));
  CHECK(file.file().contains("sgd.state.0.momentum_buffer"));
  kt::optim::SGD<float, kt::Host> other(model.parameters(), kt::optim::SGDOptions(0.5));
  file.restore("sgd", other);
  CHECK(other.hyperparameters() == sgd.hyperparameters());
  CHECK(bit_equal(other.state(2).at("momentum_buffer"), sgd.state(2).at("momentum_buffer")));

  kt::optim::AdamW<float, kt::Host> adamw(model.parameters(), 1e-3);
  CHECK(kt_test::error_of([&] { file.restore("sgd", adamw); }).find("holds the state of a kt::optim::SGD, not of a kt::optim::AdamW") !=
        std::string::npos);
}

TEST_CASE("a checkpoint that lies is a kt::Error naming the record and field, and nothing changes") {
  Run<kt::Host> run;
  run.epoch();
  const auto good = run.checkpoint();
  good.save(scratch("good.safetensors"));
  const auto file = kt::io::load_checkpoint(scratch("good.safetensors"));
  const auto meta = file.file().metadata();

  // Records rewritten one at a time; the tensors stay those of the good file.
  const auto with_record = [&](const std::string& key, const std::string& value) {
    kt::io::NamedTensors t;
    for (const auto& name : file.file().names())
      t.add(name, file.file().get<float>(name));
    auto m = meta;
    m[key] = value;
    const auto path = scratch("lie.safetensors");
    kt::io::save_safetensors(path, t, m);
    return kt::io::load_checkpoint(path);
  };
  Run<kt::Host> target;
  const auto before = target.opt.hyperparameters();
  const auto error = [&](const kt::io::CheckpointFile& f, const std::string& name) {
    return kt_test::error_of([&] {
      if (name == "optimizer") f.restore(name, target.opt);
      else if (name == "scheduler") f.restore(name, target.sched);
      else if (name == "loader") f.restore(name, target.loader);
      else if (name == "rng") f.restore(name, target.noise);
      else f.restore(name, target.model);
    });
  };
  const auto contains = [](const std::string& s, const std::string& part) {
    INFO(s);
    return s.find(part) != std::string::npos;
  };
  CHECK(contains(error(with_record("optimizer", "[[[[[[[[[[1]]]]]]]]]]"), "optimizer"), "record 'optimizer': the record nests more than 8"));
  CHECK(contains(error(with_record("optimizer", "{\"kind\": 1"), "optimizer"), "record 'optimizer': not a JSON object"));
  CHECK(contains(error(with_record("optimizer", "{\"kind\": \"generator\"}"), "optimizer"), "is a generator record, not a optimizer one"));
  CHECK(contains(error(with_record("rng", "{\"kind\": \"generator\", \"seed\": -1, \"offset\": 0}"), "rng"), "field \"seed\" is not a non-negative integer"));
  CHECK(contains(error(with_record("scheduler", R"({"kind": "lr_scheduler", "type": "LinearLR", "base_lrs": [1], "last_epoch": 0})"), "scheduler"),
                 "holds a LinearLR, not a StepLR"));
  CHECK(contains(error(with_record("scheduler", R"({"kind": "lr_scheduler", "type": "StepLR", "base_lrs": [], "last_epoch": 0})"), "scheduler"),
                 "\"base_lrs\" is not a list of one learning rate"));
  auto opt_record = nlohmann::json::parse(meta.at("optimizer"));
  opt_record["param_groups"][0]["params"] = {0, 1};
  CHECK(contains(error(with_record("optimizer", opt_record.dump()), "optimizer"), "does not list the optimizer's 4 parameters"));
  opt_record = nlohmann::json::parse(meta.at("optimizer"));
  opt_record["param_groups"][0]["lr"] = "fast";
  CHECK(contains(error(with_record("optimizer", opt_record.dump()), "optimizer"), "field \"lr\" is not a number"));
  opt_record["param_groups"][0]["lr"] = -1;
  CHECK(contains(error(with_record("optimizer", opt_record.dump()), "optimizer"), "kt::optim::Adam: invalid learning rate -1"));
  CHECK(target.opt.hyperparameters() == before);
  CHECK(target.opt.state(0).empty());
  auto loader_record = nlohmann::json::parse(meta.at("loader"));
  loader_record["seed"] = 4;
  CHECK(contains(error(with_record("loader", loader_record.dump()), "loader"),
                 "was saved with seed = 4 but this loader has 3: the resumed passes would not be the saved run's"));
  CHECK(contains(error(file, "missing"), "record 'missing': not in the checkpoint"));
  // A model without its Dropout, or whose generator record is missing.
  kt::nn::Sequential<float, kt::Host> plain;
  plain.push_back(kt::nn::Linear<float, kt::Host>(kt::nn::LinearOptions(4, 16)));
  CHECK(contains(kt_test::error_of([&] { file.restore("model", plain); }), "holds 1 Dropout generators, the model has 0"));

  // Lying tensors: a state index past the parameters, a misnamed one, a wrong step dtype.
  kt::io::NamedTensors extra;
  for (const auto& name : file.file().names()) extra.add(name, file.file().get<float>(name));
  extra.add("optimizer.state.4.exp_avg", kt::zeros<float, kt::Host>({2}));
  kt::io::save_safetensors(scratch("extra.safetensors"), extra, meta);
  CHECK(contains(error(kt::io::load_checkpoint(scratch("extra.safetensors")), "optimizer"),
                 "tensor 'optimizer.state.4.exp_avg' is the state of parameter 4 but the optimizer has 4 parameters"));
  for (const char* bad : {"optimizer.state.01.exp_avg", "optimizer.state.x.exp_avg", "optimizer.state.1.", "optimizer.other"}) {
    kt::io::NamedTensors t;
    for (const auto& name : file.file().names()) t.add(name, file.file().get<float>(name));
    t.add(bad, kt::zeros<float, kt::Host>({2}));
    kt::io::save_safetensors(scratch("bad_name.safetensors"), t, meta);
    const auto e = error(kt::io::load_checkpoint(scratch("bad_name.safetensors")), "optimizer");
    CHECK_MESSAGE((contains(e, "is not named optimizer.state.<i>.<key>") || contains(e, "unexpected tensor")), bad);
  }
  kt::io::NamedTensors wrong_step;
  for (const auto& name : file.file().names())
    if (name == "optimizer.state.0.step") wrong_step.add(name, kt::full<float, kt::Host>({}, 2.5f));
    else wrong_step.add(name, file.file().get<float>(name));
  kt::io::save_safetensors(scratch("step.safetensors"), wrong_step, meta);
  CHECK(contains(error(kt::io::load_checkpoint(scratch("step.safetensors")), "optimizer"),
                 "tensor 'optimizer.state.0.step' holds 2.5, not a step count"));
  CHECK(target.opt.state(0).empty());
  CHECK(kt_test::error_of([&] { kt::io::Checkpoint().add("a.b", target.noise); }) ==
        "kt::io::Checkpoint: the name 'a.b' is empty, has a '.' or is reserved (format)");
}

namespace {

/// Every value a restore could change, for bit-for-bit comparison.
template <class D>
std::vector<std::string> snapshot(Run<D>& run) {
  std::vector<std::string> out;
  const auto bytes = [&](const auto& t) {
    const auto v = t.to_vector();
    out.emplace_back(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
  };
  for (const auto& p : run.model.parameters()) bytes(p.data());
  for (std::size_t i = 0; i < run.opt.params().size(); ++i) {
    out.push_back("step " + std::to_string(run.opt.state(i).step));
    for (const auto& [key, t] : run.opt.state(i).tensors) {
      out.push_back(key);
      bytes(t);
    }
  }
  for (const auto& [key, value] : run.opt.hyperparameters()) out.push_back(key + " " + std::to_string(value));
  out.push_back("epoch " + std::to_string(run.sched.last_epoch()) + " lr " + std::to_string(run.opt.lr()));
  out.push_back("loader " + std::to_string(run.loader.epoch()));
  out.push_back("rng " + std::to_string(run.noise.offset()));
  for (const auto& [path, g] : run.model.named_generators()) out.push_back(path + " " + std::to_string(g->offset()));
  const auto s = run.scaler.state_dict();
  out.push_back("scaler " + std::to_string(s.scale) + " " + std::to_string(s.growth_tracker));
  return out;
}

template <class D>
kt::io::Restore everything(Run<D>& run) {
  return kt::io::Restore()
      .add("loader", run.loader)
      .add("model", run.model)
      .add("optimizer", run.opt)
      .add("scheduler", run.sched)
      .add("rng", run.noise)
      .add("scaler", run.scaler);
}

/// The checkpoint of `run` with its metadata entry `key` replaced by `value`.
template <class D>
std::string with_entry(const Run<D>& run, const std::string& key, const std::string& value, const std::string& tag) {
  const auto good = scratch("good_" + tag + ".safetensors");
  run.checkpoint().save(good);
  const auto file = kt::io::load_safetensors(good);
  kt::io::NamedTensors t;
  for (const auto& name : file.names()) t.add(name, file.get<float>(name));
  auto m = file.metadata();
  m[key] = value;
  const auto path = scratch("entry_" + tag + ".safetensors");
  kt::io::save_safetensors(path, t, m);
  return path;
}

}  // namespace

TEST_CASE_TEMPLATE("a restore with a bad later part leaves every object exactly as it was", D, KT_DEVICES) {
  Run<D> saved;
  saved.epoch();
  saved.epoch();
  const auto good = scratch("transaction.safetensors");
  saved.checkpoint().save(good);

  Run<D> target;  // another state everywhere: one epoch, other draws
  target.noise = kt::Generator(99);
  target.epoch();
  const auto before = snapshot(target);
  const auto fails_unchanged = [&](const std::string& path, const std::string& part) {
    const std::string error = kt_test::error_of([&] { everything(target).from(path); });
    INFO(error);
    CHECK(error.find(part) != std::string::npos);
    CHECK(error.find("(nothing was restored)") != std::string::npos);
    CHECK(snapshot(target) == before);
  };
  // The last part bad: the scaler's record.
  auto scaler = nlohmann::json::parse(kt::io::load_safetensors(good).metadata().at("scaler"));
  scaler["scale"] = -1.0;
  fails_unchanged(with_entry(saved, "scaler", scaler.dump(), "scaler"), "scale -1 must be finite and > 0");
  // A damaged optimizer tensor (one bit flipped, after the model's tensors).
  const auto damaged = scratch("damaged.safetensors");
  std::string bytes = read_all(good);
  bytes[bytes.size() - 5] = static_cast<char>(bytes[bytes.size() - 5] ^ 0x10);
  write_all(damaged, bytes);
  fails_unchanged(damaged, "does not match its checksum");
  // The file cut after it was opened.
  write_all(damaged, read_all(good));
  const auto opened = kt::io::load_checkpoint(damaged);
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) - 64);
  const std::string error = kt_test::error_of([&] { everything(target).from(opened); });
  CHECK(error.find("cannot read tensor") != std::string::npos);
  CHECK(snapshot(target) == before);

  // The good file restores everything.
  everything(target).from(good);
  CHECK(snapshot(target) == snapshot(saved));
  CHECK(kt_test::error_of([&] { kt::io::Restore().add("rng", target.noise).add("rng", target.noise); }) ==
        "kt::io::Restore: the name 'rng' is added twice");
}

TEST_CASE("checkpoint records are validated like user input: each bad value names its key and value") {
  Run<kt::Host> run;
  run.epoch();
  const auto good = scratch("records.safetensors");
  run.checkpoint().save(good);
  const auto meta = kt::io::load_safetensors(good).metadata();
  const auto opt_with = [&](const std::string& key, const nlohmann::json& value) {
    auto record = nlohmann::json::parse(meta.at("optimizer"));
    if (value.is_discarded()) record["param_groups"][0].erase(key);
    else record["param_groups"][0][key] = value;
    return with_entry(run, "optimizer", record.dump(), "opt");
  };
  Run<kt::Host> target;
  const auto before = snapshot(target);
  const auto error = [&](const std::string& path, const std::string& part) {
    const std::string e = kt_test::error_of([&] { kt::io::load_checkpoint(path).restore("optimizer", target.opt); });
    INFO(e);
    return e.find(part) != std::string::npos;
  };
  for (const auto& bad : {nlohmann::json::parse(R"(["a", 1, 2, 3])"), nlohmann::json::parse("[null, 1, 2, 3]"),
                          nlohmann::json::parse("[{}, 1, 2, 3]"), nlohmann::json::parse("[1, 0, 2, 3]")})
    CHECK(error(opt_with("params", bad), "the group's \"params\" entry "));
  CHECK(error(opt_with("params", nlohmann::json::parse("[1, 0, 2, 3]")), "entry 0 is 1, not 0"));
  for (const double flag : {-1.0, 1.5, 1e29})
    CHECK(error(opt_with("maximize", flag), "kt::optim::Adam::set_hyperparameters: \"maximize\" is a flag (0 or 1), got "));
  CHECK(error(opt_with("amsgrad", 2), "\"amsgrad\" is a flag (0 or 1), got 2"));
  CHECK(error(opt_with("lr", -0.5), "invalid learning rate -0.5"));
  CHECK(error(opt_with("beta2", 1.0), "invalid beta2 1 (expected 0 <= beta2 < 1)"));
  CHECK(error(opt_with("weight_decay", -1e-4), "invalid weight_decay -0.0001"));
  CHECK(error(opt_with("lr", nlohmann::json::value_t::discarded), "the group has no \"lr\" (a kt::optim::Adam record holds every hyperparameter)"));
  CHECK(error(opt_with("momentum", 0.9), "unknown hyperparameter \"momentum\""));
  CHECK(snapshot(target) == before);

  // The model record's type, the scheduler's and the scaler's values.
  auto model = nlohmann::json::parse(meta.at("model"));
  model["type"] = "Linear";
  CHECK(kt_test::error_of([&] { kt::io::load_checkpoint(with_entry(run, "model", model.dump(), "model")).restore("model", target.model); })
            .find("record 'model': holds a Linear, not a Sequential") != std::string::npos);
  auto sched = nlohmann::json::parse(meta.at("scheduler"));
  sched["base_lrs"] = {-1.0};
  CHECK(kt_test::error_of([&] { kt::io::load_checkpoint(with_entry(run, "scheduler", sched.dump(), "sched")).restore("scheduler", target.sched); })
            .find("base_lr -1 and last_epoch 1 must both be finite and >= 0") != std::string::npos);
  auto scaler = nlohmann::json::parse(meta.at("scaler"));
  scaler["_growth_tracker"] = 99;
  CHECK(kt_test::error_of([&] { kt::io::load_checkpoint(with_entry(run, "scaler", scaler.dump(), "scaler")).restore("scaler", target.scaler); })
            .find("growth tracker 99 must be in [0, growth_interval = 3)") != std::string::npos);
  CHECK(snapshot(target) == before);
}

namespace {

/// A component of the user's own: an exponential moving average of the loss with its step
/// count, saved as one record and one tensor through kt::io::CheckpointPart.
struct LossAverage {
  std::int64_t steps = 0;
  kt::Tensor<double, kt::Host> value = kt::zeros<double, kt::Host>({1});
};

}  // namespace

template <>
struct kt::io::CheckpointPart<LossAverage> {
  static void save(NamedTensors& tensors, CheckpointRecords& records, const std::string& name, const LossAverage& a) {
    records[name] = std::to_string(a.steps);
    tensors.add(name + ".value", a.value);
  }
  static RestoreCommit stage(const SafetensorsFile& file, const std::string& name, LossAverage& a) {
    const auto it = file.metadata().find(name);
    KT_REQUIRE(it != file.metadata().end() && !it->second.empty() &&
                   it->second.find_first_not_of("0123456789") == std::string::npos,
               "LossAverage '", name, "': no step count");
    const std::int64_t steps = std::stoll(it->second);
    auto value = file.get<double>(name + ".value");
    KT_REQUIRE(value.shape() == kt::Shape({1}), "LossAverage '", name, "': the value has shape ", value.shape().str());
    return [&a, steps, value] {
      a.steps = steps;
      a.value = value;
    };
  }
};

TEST_CASE("a type of the user's own is a checkpoint part through kt::io::CheckpointPart, all or nothing too") {
  Run<kt::Host> run;
  run.epoch();
  LossAverage average;
  average.steps = 5;
  average.value = kt::full<double, kt::Host>({1}, 0.25);
  const auto path = scratch("own_part.safetensors");
  run.checkpoint().add("loss_average", average).save(path);
  CHECK(kt::io::load_safetensors(path).metadata().at("loss_average") == "5");

  Run<kt::Host> fresh;
  LossAverage restored;
  kt::io::Restore().add("model", fresh.model).add("loss_average", restored).from(path);
  CHECK(restored.steps == 5);
  CHECK(restored.value.to_vector() == std::vector<double>{0.25});
  CHECK(bit_equal(fresh.model.parameters()[0].data(), run.model.parameters()[0].data()));
  kt::io::load_checkpoint(path).restore("loss_average", restored);  // one part alone
  CHECK(restored.steps == 5);

  // The user's part refuses a bad record: nothing restored, the model included.
  kt::io::Checkpoint().add("model", run.model).set("loss_average", "five").save(path);
  Run<kt::Host> untouched;
  LossAverage kept;
  const auto before = untouched.model.parameters()[0].data().to_vector();
  const std::string error =
      kt_test::error_of([&] { kt::io::Restore().add("model", untouched.model).add("loss_average", kept).from(path); });
  CHECK(error == "LossAverage 'loss_average': no step count (nothing was restored)");
  CHECK(untouched.model.parameters()[0].data().to_vector() == before);
  CHECK(kept.steps == 0);
}
