#pragma once
// Restoring a checkpoint's component in two phases: stage_restore() reads and checks
// everything the restore would change (records, tensors, checksums) and returns the commit,
// a function that only assigns values already checked — so a restore of any number of
// components either changes all of them or, when any stage fails, none.

#include "kt/amp/grad_scaler.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/data/dataloader.hpp"
#include "kt/io/impl/checkpoint_record.hpp"
#include "kt/io/impl/optimizer_record.hpp"
#include "kt/io/impl/run_records.hpp"
#include "kt/io/module_io.hpp"
#include "kt/io/safetensors.hpp"
#include "kt/nn/module.hpp"
#include "kt/optim/lr_scheduler.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/generator.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kt::impl {

using RestoreCommit = std::function<void()>;

/// A module: every state_dict key strict (as kt::io::load), its type, its Dropout generators.
template <class T, class D>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, nn::Module<T, D>& model) {
  const std::string where = record_where(file.path(), name);
  const auto record = read_record(file.metadata(), file.path(), name, "module");
  const std::string type = record_string(record, "type", where);
  KT_REQUIRE(type == model.name(), where, "holds a ", printable(type), ", not a ", model.name());
  KT_REQUIRE(record.contains("generators") && record["generators"].is_object(), where, "has no \"generators\" object");
  const auto& saved = record["generators"];
  auto generators = model.named_generators();
  KT_REQUIRE(saved.size() == generators.size(), where, "holds ", saved.size(), " Dropout generators, the model has ",
             generators.size());
  std::vector<Generator> values;
  for (const auto& [path, g] : generators) {
    (void)g;
    KT_REQUIRE(saved.contains(path), where, "has no generator for module '", printable(path), "'");
    values.push_back(generator_from(saved[path], where + "generator '" + printable(path) + "': "));
  }
  auto staged = stage_module_load(model, file, /*strict=*/true, name + ".");
  return [staged = std::move(staged), generators = std::move(generators), values = std::move(values)] {
    staged.commit();
    for (std::size_t i = 0; i < generators.size(); ++i) *generators[i].second = values[i];
  };
}

template <class T, class D>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, optim::Optimizer<T, D>& opt) {
  auto sd = read_optimizer_state(file, name, opt);
  return [&opt, sd = std::move(sd)] { opt.load_state_dict(sd); };
}

inline RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, optim::LRScheduler& sched) {
  const std::string where = record_where(file.path(), name);
  const auto state = scheduler_from(read_record(file.metadata(), file.path(), name, "lr_scheduler"), sched, where);
  try {
    optim::LRScheduler::check_state_dict(state);
  } catch (const Error& e) {
    KT_THROW(where, e.message());
  }
  return [&sched, state] { sched.load_state_dict(state); };
}

inline RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, amp::GradScaler& scaler) {
  const std::string where = record_where(file.path(), name);
  const auto state = scaler_from(read_record(file.metadata(), file.path(), name, "grad_scaler"), where);
  try {
    amp::GradScaler::check_state_dict(state);
  } catch (const Error& e) {
    KT_THROW(where, e.message());
  }
  return [&scaler, state] { scaler.load_state_dict(state); };
}

inline RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, Generator& gen) {
  const std::string where = record_where(file.path(), name);
  const Generator value = generator_from(read_record(file.metadata(), file.path(), name, "generator"), where);
  return [&gen, value] { gen = value; };
}

/// A loader: its epoch, refused when the loader orders its samples otherwise than the saved one.
template <class Dev, class X, class Y>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, DataLoader<Dev, X, Y>& loader) {
  const std::string where = record_where(file.path(), name);
  const auto epoch = loader_epoch_from(read_record(file.metadata(), file.path(), name, "data_loader"), loader, where);
  return [&loader, epoch] { loader.set_epoch(epoch); };
}

}  // namespace kt::impl
