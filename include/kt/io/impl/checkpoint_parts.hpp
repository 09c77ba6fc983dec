#pragma once
// kt's own checkpoint parts (kt/io/checkpoint_part.hpp), each type's two sides together:
// save_part() adds its tensors and JSON record to the file being written; stage_restore()
// reads and checks everything the restore would change (records, tensors, checksums) and
// returns the commit, a function that only assigns values already checked — so a restore of
// any number of components either changes all of them or, when any stage fails, none.
// Overloads, so a derived type (a Sequential, an Adam, a StepLR) finds its base's.

#include "kt/core/impl/internal.hpp"

#include "kt/amp/grad_scaler.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
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

#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt::impl {

using RestoreCommit = std::function<void()>;
using CheckpointRecords = std::map<std::string, std::string>;

/// A module: its state_dict as tensors "<name>.<key>"; its type and Dropout generators.
template <class T, class D>
void save_part(io::NamedTensors& tensors, CheckpointRecords& records, const std::string& name,
               const nn::Module<T, D>& model) {
  std::vector<Json::Member> generators;  // the module paths are distinct
  for (const auto& [path, g] : model.named_generators()) generators.emplace_back(path, generator_record(*g));
  records[name] =
      Json::object({{"kind", "module"}, {"type", model.name()}, {"generators", Json::object(std::move(generators))}})
          .dump();
  for (const auto& [key, t] : model.state_dict()) tensors.add(name + "." + key, t);
}

/// A module: every state_dict key strict (as kt::io::load), its type, its Dropout generators.
template <class T, class D>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, nn::Module<T, D>& model) {
  const std::string where = record_where(file.path(), name);
  const auto record = read_record(file.metadata(), file.path(), name, "module");
  const std::string type = record_string(record, "type", where);
  KT_REQUIRE(type == model.name(), where, "holds a ", printable(type), ", not a ", model.name());
  const Json& saved = record.get("generators");
  KT_REQUIRE(saved.is_object(), where, "has no \"generators\" object");
  auto generators = model.named_generators();
  KT_REQUIRE(saved.size() == generators.size(), where, "holds ", saved.size(), " Dropout generators, the model has ",
             generators.size());
  std::vector<Generator> values;
  for (const auto& [path, g] : generators) {
    (void)g;
    KT_REQUIRE(saved.find(path), where, "has no generator for module '", printable(path), "'");
    values.push_back(generator_from(saved.get(path), where + "generator '" + printable(path) + "': "));
  }
  auto staged = stage_module_load(model, file, /*strict=*/true, name + ".");
  return [staged = std::move(staged), generators = std::move(generators), values = std::move(values)] {
    staged.commit();
    for (std::size_t i = 0; i < generators.size(); ++i) *generators[i].second = values[i];
  };
}

/// An optimizer: its state and hyperparameters (impl/optimizer_record.hpp).
template <class T, class D>
void save_part(io::NamedTensors& tensors, CheckpointRecords& records, const std::string& name,
               const optim::Optimizer<T, D>& opt) {
  add_optimizer_record(tensors, records, name, opt);
}

template <class T, class D>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, optim::Optimizer<T, D>& opt) {
  auto sd = read_optimizer_state(file, name, opt);
  return [&opt, sd = std::move(sd)] { opt.load_state_dict(sd); };
}

// A learning rate scheduler, a GradScaler, a Generator, and a data loader's record from what
// every DataLoader<Device, X, Y> shares (defined once in kt_compiled when it is linked,
// kt/core/impl/compiled.hpp).
KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const optim::LRScheduler& sched);
KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      optim::LRScheduler& sched);
KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const amp::GradScaler& scaler);
KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      amp::GradScaler& scaler);
KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const Generator& gen);
KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      Generator& gen);
KT_INLINE_UNLESS_COMPILED void save_loader_record(CheckpointRecords& records, const std::string& name,
                                                  const DataLoaderOptions& options, std::uint64_t epoch,
                                                  std::int64_t dataset_size);
KT_INLINE_UNLESS_COMPILED std::uint64_t saved_loader_epoch(const io::SafetensorsFile& file, const std::string& name,
                                                           const DataLoaderOptions& options,
                                                           std::int64_t dataset_size);

/// A loader: the epoch of its next pass, with the settings that decide its order; its restore
/// is refused when the loader orders its samples otherwise than the saved one.
template <class Dev, class X, class Y>
void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
               const DataLoader<Dev, X, Y>& loader) {
  save_loader_record(records, name, loader.options(), loader.epoch(), loader.dataset_size());
}

template <class Dev, class X, class Y>
RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name, DataLoader<Dev, X, Y>& loader) {
  const auto epoch = saved_loader_epoch(file, name, loader.options(), loader.dataset_size());
  return [&loader, epoch] { loader.set_epoch(epoch); };
}

/// Whether X is one of kt's own checkpoint parts (a save_part overload takes it).
template <class X, class = void>
inline constexpr bool is_builtin_checkpoint_part_v = false;
template <class X>
inline constexpr bool is_builtin_checkpoint_part_v<
    X, std::void_t<decltype(save_part(std::declval<io::NamedTensors&>(), std::declval<CheckpointRecords&>(),
                                      std::declval<const std::string&>(), std::declval<const X&>()))>> = true;

// The definitions of the declarations above.
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)

KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const optim::LRScheduler& sched) {
  records[name] = scheduler_record(sched).dump();
}

KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      optim::LRScheduler& sched) {
  const std::string where = record_where(file.path(), name);
  const auto state = scheduler_from(read_record(file.metadata(), file.path(), name, "lr_scheduler"), sched, where);
  try {
    optim::LRScheduler::check_state_dict(state);
  } catch (const Error& e) {
    KT_THROW(where, e.message());
  }
  return [&sched, state] { sched.load_state_dict(state); };
}

KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const amp::GradScaler& scaler) {
  records[name] = scaler_record(scaler).dump();
}

KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      amp::GradScaler& scaler) {
  const std::string where = record_where(file.path(), name);
  const auto state = scaler_from(read_record(file.metadata(), file.path(), name, "grad_scaler"), where);
  try {
    amp::GradScaler::check_state_dict(state);
  } catch (const Error& e) {
    KT_THROW(where, e.message());
  }
  return [&scaler, state] { scaler.load_state_dict(state); };
}

KT_INLINE_UNLESS_COMPILED void save_part(io::NamedTensors&, CheckpointRecords& records, const std::string& name,
                                         const Generator& gen) {
  records[name] = generator_record(gen).dump();
}

KT_INLINE_UNLESS_COMPILED RestoreCommit stage_restore(const io::SafetensorsFile& file, const std::string& name,
                                                      Generator& gen) {
  const std::string where = record_where(file.path(), name);
  const Generator value = generator_from(read_record(file.metadata(), file.path(), name, "generator"), where);
  return [&gen, value] { gen = value; };
}

KT_INLINE_UNLESS_COMPILED void save_loader_record(CheckpointRecords& records, const std::string& name,
                                                  const DataLoaderOptions& options, std::uint64_t epoch,
                                                  std::int64_t dataset_size) {
  records[name] = loader_record(options, epoch, dataset_size).dump();
}

KT_INLINE_UNLESS_COMPILED std::uint64_t saved_loader_epoch(const io::SafetensorsFile& file, const std::string& name,
                                                           const DataLoaderOptions& options,
                                                           std::int64_t dataset_size) {
  const std::string where = record_where(file.path(), name);
  return loader_epoch_from(read_record(file.metadata(), file.path(), name, "data_loader"), options, dataset_size,
                           where);
}

#endif

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the checkpoint parts of a floating module and optimizer.
#define KT_ETI_CHECKPOINT_PARTS_ONE(T, D, KW)                                                                      \
  KW void kt::impl::save_part<T, D>(kt::io::NamedTensors&, kt::impl::CheckpointRecords&, const std::string&,      \
                                    const kt::nn::Module<T, D>&);                                                  \
  KW kt::impl::RestoreCommit kt::impl::stage_restore<T, D>(const kt::io::SafetensorsFile&, const std::string&,    \
                                                           kt::nn::Module<T, D>&);                                 \
  KW void kt::impl::save_part<T, D>(kt::io::NamedTensors&, kt::impl::CheckpointRecords&, const std::string&,      \
                                    const kt::optim::Optimizer<T, D>&);                                            \
  KW kt::impl::RestoreCommit kt::impl::stage_restore<T, D>(const kt::io::SafetensorsFile&, const std::string&,    \
                                                           kt::optim::Optimizer<T, D>&);
#define KT_ETI_CHECKPOINT_PARTS(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_CHECKPOINT_PARTS_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_IO)
KT_ETI_CHECKPOINT_PARTS(extern template)
#endif
