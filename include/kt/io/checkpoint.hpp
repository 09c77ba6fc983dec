#pragma once
/// \file kt/io/checkpoint.hpp
/// A whole training run in one safetensors file, to resume it exactly — what
/// `torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), ...})` is for.
///
///     kt::io::Checkpoint()
///         .add("model", model)               // tensors model.<state_dict key>, + Dropout generators
///         .add("optimizer", opt)             // optimizer.state.<i>.exp_avg ..., PyTorch's keys
///         .add("scheduler", sched)           // base_lr, last_epoch
///         .add("loader", loader)             // the epoch of the next pass (and its settings)
///         .add("scaler", scaler)             // kt::amp::GradScaler: scale, growth tracker
///         .add("rng", kt::default_generator())
///         .set("epoch", std::to_string(epoch))
///         .save("run.safetensors");          // atomic
///
///     const auto saved = kt::io::load_checkpoint("run.safetensors");   // validated
///     saved.restore("model", model);         // strict: every key, shape and dtype
///     saved.restore("optimizer", opt);       // then scheduler, loader, rng the same way
///     int epoch = std::stoi(saved.get("epoch"));
///
/// Each component is checked completely before it changes (a wrong file leaves it as it
/// was); errors name the file, the component and the field. The model's tensors carry
/// PyTorch's state_dict keys under "model." and the file's metadata says {"format": "pt"}, so
/// `safetensors.torch.load_file` reads it; the other components are JSON records in
/// `__metadata__` (see impl/checkpoint_record.hpp, impl/optimizer_record.hpp).

#include "kt/amp/grad_scaler.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/data/dataloader.hpp"
#include "kt/io/impl/checkpoint_record.hpp"
#include "kt/io/impl/optimizer_record.hpp"
#include "kt/io/impl/run_records.hpp"
#include "kt/io/module_io.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/io/safetensors.hpp"
#include "kt/nn/module.hpp"
#include "kt/optim/lr_scheduler.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/generator.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>

namespace kt::io {

/// Components of a run, gathered for one atomic save.
class Checkpoint {
public:
  /// A module's state_dict as tensors "<name>.<key>", and the generators of its Dropout layers.
  template <class T, class D>
  Checkpoint& add(const std::string& name, const nn::Module<T, D>& model) {
    claim(name);
    nlohmann::json generators = nlohmann::json::object();
    for (const auto& [path, g] : model.named_generators()) generators[path] = impl::generator_record(*g);
    metadata_[name] = nlohmann::json{{"kind", "module"}, {"type", model.name()}, {"generators", generators}}.dump();
    for (const auto& [key, t] : model.state_dict()) tensors_.add(name + "." + key, t);
    return *this;
  }
  /// An optimizer's state and hyperparameters (impl/optimizer_record.hpp).
  template <class T, class D>
  Checkpoint& add(const std::string& name, const optim::Optimizer<T, D>& opt) {
    claim(name);
    impl::add_optimizer_record(tensors_, metadata_, name, opt);
    return *this;
  }
  Checkpoint& add(const std::string& name, const optim::LRScheduler& sched) {
    claim(name);
    metadata_[name] = impl::scheduler_record(sched).dump();
    return *this;
  }
  Checkpoint& add(const std::string& name, const amp::GradScaler& scaler) {
    claim(name);
    metadata_[name] = impl::scaler_record(scaler).dump();
    return *this;
  }
  Checkpoint& add(const std::string& name, const Generator& gen) {
    claim(name);
    metadata_[name] = impl::generator_record(gen).dump();
    return *this;
  }
  /// The epoch of the loader's next pass, with the settings that decide its order (checked
  /// when restoring: another seed or batch size would not resume the same run).
  template <class Dev, class X, class Y>
  Checkpoint& add(const std::string& name, const DataLoader<Dev, X, Y>& loader) {
    claim(name);
    metadata_[name] = impl::loader_record(loader).dump();
    return *this;
  }
  /// A string of your own (the epoch, the configuration).
  Checkpoint& set(const std::string& key, const std::string& value) {
    claim(key);
    metadata_[key] = value;
    return *this;
  }

  /// Writes everything to `path` atomically.
  void save(const std::string& path) const { save_safetensors(path, tensors_, metadata_); }

private:
  void claim(const std::string& name) {
    KT_REQUIRE(!name.empty() && name.find('.') == std::string::npos && name != "format",
               "kt::io::Checkpoint: the name '", impl::printable(name), "' is empty, has a '.' or is reserved (format)");
    KT_REQUIRE(names_.insert(name).second, "kt::io::Checkpoint: the name '", impl::printable(name), "' is used twice");
  }
  NamedTensors tensors_;
  std::map<std::string, std::string> metadata_{{"format", "pt"}};
  std::set<std::string> names_;
};

/// A saved checkpoint, opened and validated; components are restored on request.
class CheckpointFile {
public:
  explicit CheckpointFile(SafetensorsFile file) : file_(std::move(file)) {}
  const SafetensorsFile& file() const { return file_; }
  bool contains(const std::string& name) const { return file_.metadata().count(name) != 0; }
  /// The string saved with Checkpoint::set(key, ...).
  const std::string& get(const std::string& key) const {
    const auto it = file_.metadata().find(key);
    KT_REQUIRE(it != file_.metadata().end(), impl::record_where(file_.path(), key), "not in the checkpoint");
    return it->second;
  }

  /// Loads the module saved as `name` (strict as kt::io::load: every key, dtype and shape;
  /// and the same Dropout layers).
  template <class T, class D>
  void restore(const std::string& name, nn::Module<T, D>& model) const {
    const std::string where = impl::record_where(file_.path(), name);
    const auto record = impl::read_record(file_.metadata(), file_.path(), name, "module");
    KT_REQUIRE(record.contains("generators") && record["generators"].is_object(), where, "has no \"generators\" object");
    const auto& saved = record["generators"];
    auto generators = model.named_generators();
    KT_REQUIRE(saved.size() == generators.size(), where, "holds ", saved.size(), " Dropout generators, the model has ",
               generators.size());
    std::vector<Generator> values;
    for (const auto& [path, g] : generators) {
      KT_REQUIRE(saved.contains(path), where, "has no generator for module '", impl::printable(path), "'");
      values.push_back(impl::generator_from(saved[path], where + "generator '" + impl::printable(path) + "': "));
    }
    load(model, file_, /*strict=*/true, name + ".");
    for (std::size_t i = 0; i < generators.size(); ++i) *generators[i].second = values[i];
  }
  template <class T, class D>
  void restore(const std::string& name, optim::Optimizer<T, D>& opt) const {
    impl::restore_optimizer_record(file_, name, opt);
  }
  void restore(const std::string& name, optim::LRScheduler& sched) const {
    const std::string where = impl::record_where(file_.path(), name);
    sched.load_state_dict(impl::scheduler_from(impl::read_record(file_.metadata(), file_.path(), name, "lr_scheduler"), sched, where));
  }
  void restore(const std::string& name, amp::GradScaler& scaler) const {
    const std::string where = impl::record_where(file_.path(), name);
    scaler.load_state_dict(impl::scaler_from(impl::read_record(file_.metadata(), file_.path(), name, "grad_scaler"), where));
  }
  void restore(const std::string& name, Generator& gen) const {
    const std::string where = impl::record_where(file_.path(), name);
    gen = impl::generator_from(impl::read_record(file_.metadata(), file_.path(), name, "generator"), where);
  }
  /// Sets the loader's epoch; kt::Error when it orders its samples otherwise than the saved one.
  template <class Dev, class X, class Y>
  void restore(const std::string& name, DataLoader<Dev, X, Y>& loader) const {
    const std::string where = impl::record_where(file_.path(), name);
    loader.set_epoch(impl::loader_epoch_from(impl::read_record(file_.metadata(), file_.path(), name, "data_loader"), loader, where));
  }

private:
  SafetensorsFile file_;
};

/// Opens and validates a checkpoint written by Checkpoint::save.
inline CheckpointFile load_checkpoint(const std::string& path) { return CheckpointFile(load_safetensors(path)); }

}  // namespace kt::io
