#pragma once
// The small components of a checkpoint as records (impl/checkpoint_record.hpp): a generator,
// a learning-rate schedule, a GradScaler and a data loader, each written and read here, side
// by side.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/amp/grad_scaler.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/data/dataloader_options.hpp"
#include "kt/io/impl/checkpoint_record.hpp"
#include "kt/optim/lr_scheduler.hpp"
#include "kt/tensor/generator.hpp"

#include <cstdint>
#include <string>

namespace kt::impl {

/// A Generator's record and back.
KT_INLINE_UNLESS_COMPILED Json generator_record(const Generator& g);
KT_INLINE_UNLESS_COMPILED Generator generator_from(const Json& record, const std::string& where);

/// PyTorch's LRScheduler.state_dict() fields that matter: base_lrs, last_epoch, _last_lr.
KT_INLINE_UNLESS_COMPILED Json scheduler_record(const optim::LRScheduler& sched);
KT_INLINE_UNLESS_COMPILED optim::LRSchedulerState scheduler_from(const Json& record,
                                                                 const optim::LRScheduler& sched,
                                                                 const std::string& where);

/// PyTorch's GradScaler.state_dict(): scale, growth_factor, backoff_factor, growth_interval,
/// _growth_tracker.
KT_INLINE_UNLESS_COMPILED Json scaler_record(const amp::GradScaler& scaler);
KT_INLINE_UNLESS_COMPILED amp::GradScalerState scaler_from(const Json& record, const std::string& where);

/// The epoch of a loader's next pass, with the settings that decide its order: restoring
/// into a loader that orders its samples otherwise would not resume the saved run. Written
/// from what every DataLoader<Device, X, Y> shares, so one copy serves them all.
KT_INLINE_UNLESS_COMPILED Json loader_record(const DataLoaderOptions& o, std::uint64_t epoch,
                                             std::int64_t dataset_size);
KT_INLINE_UNLESS_COMPILED std::uint64_t loader_epoch_from(const Json& record, const DataLoaderOptions& options,
                                                          std::int64_t dataset_size, const std::string& where);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)

KT_INLINE_UNLESS_COMPILED Json generator_record(const Generator& g) {
  return Json::object({{"kind", "generator"}, {"seed", g.seed()}, {"offset", g.offset()}});
}
KT_INLINE_UNLESS_COMPILED Generator generator_from(const Json& record, const std::string& where) {
  return Generator(record_count(record, "seed", where), record_count(record, "offset", where));
}

KT_INLINE_UNLESS_COMPILED Json scheduler_record(const optim::LRScheduler& sched) {
  const auto s = sched.state_dict();
  return Json::object({{"kind", "lr_scheduler"}, {"type", sched.name()}, {"base_lrs", Json::array({s.base_lr})},
                       {"last_epoch", s.last_epoch}, {"_last_lr", Json::array({sched.get_last_lr()})}});
}
KT_INLINE_UNLESS_COMPILED optim::LRSchedulerState scheduler_from(const Json& record,
                                                                 const optim::LRScheduler& sched,
                                                                 const std::string& where) {
  const std::string type = record_string(record, "type", where);
  KT_REQUIRE(type == sched.name(), where, "holds a ", printable(type), ", not a ", sched.name());
  const Json& base = record.get("base_lrs");
  KT_REQUIRE(base.is_array() && base.size() == 1 && base.elements()[0].is_number(), where,
             "\"base_lrs\" is not a list of one learning rate");
  return {base.elements()[0].as_double(), static_cast<std::int64_t>(record_count(record, "last_epoch", where))};
}

KT_INLINE_UNLESS_COMPILED Json scaler_record(const amp::GradScaler& scaler) {
  const auto s = scaler.state_dict();
  return Json::object({{"kind", "grad_scaler"},
                       {"scale", s.scale},
                       {"growth_factor", s.growth_factor},
                       {"backoff_factor", s.backoff_factor},
                       {"growth_interval", s.growth_interval},
                       {"_growth_tracker", s.growth_tracker}});
}
KT_INLINE_UNLESS_COMPILED amp::GradScalerState scaler_from(const Json& record, const std::string& where) {
  amp::GradScalerState s;
  s.scale = record_number(record, "scale", where);
  s.growth_factor = record_number(record, "growth_factor", where);
  s.backoff_factor = record_number(record, "backoff_factor", where);
  s.growth_interval = static_cast<std::int64_t>(record_count(record, "growth_interval", where));
  s.growth_tracker = static_cast<std::int64_t>(record_count(record, "_growth_tracker", where));
  return s;
}

KT_INLINE_UNLESS_COMPILED Json loader_record(const DataLoaderOptions& o, std::uint64_t epoch,
                                             std::int64_t dataset_size) {
  return Json::object({{"kind", "data_loader"},
                       {"epoch", epoch},
                       {"seed", o.seed()},
                       {"shuffle", o.shuffle()},
                       {"batch_size", o.batch_size()},
                       {"drop_last", o.drop_last()},
                       {"custom_sampler", static_cast<bool>(o.sampler())},
                       {"dataset_size", dataset_size}});
}
KT_INLINE_UNLESS_COMPILED std::uint64_t loader_epoch_from(const Json& record, const DataLoaderOptions& options,
                                                          std::int64_t dataset_size, const std::string& where) {
  const auto now = loader_record(options, 0, dataset_size);
  for (const char* field : {"seed", "shuffle", "batch_size", "drop_last", "custom_sampler", "dataset_size"})
    KT_REQUIRE(record.find(field) && record.get(field) == now.get(field), where, "was saved with ", field, " = ",
               record.find(field) ? printable(record.get(field).dump(), 40) : std::string("(none)"),
               " but this loader has ", now.get(field).dump(), ": the resumed passes would not be the saved run's");
  return record_count(record, "epoch", where);
}

#endif

}  // namespace kt::impl
