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
///     kt::io::Restore()                      // all or nothing:
///         .add("loader", loader)             //   it refuses another --seed or batch size
///         .add("model", model)               //   strict: every key, shape and dtype
///         .add("optimizer", opt)             //   then scheduler, scaler, rng the same way
///         .from("run.safetensors");          //   every part checked, then all restored
///     const auto saved = kt::io::load_checkpoint("run.safetensors");   // one file, opened once
///     saved.restore("rng", kt::default_generator());   // one part (all or nothing too)
///     int epoch = std::stoi(saved.get("epoch"));
///
/// A restore reads and checks everything it would change first — records, tensors and their
/// checksums, from the one file it opened — and only then changes anything: when any part is
/// bad (a wrong type, a missing key, a damaged or cut file) every object is exactly as it was,
/// and the kt::Error names the file, the component and the field. The model's tensors carry
/// PyTorch's state_dict keys under "model." and the file's metadata says {"format": "pt"}, so
/// `safetensors.torch.load_file` reads it; the other components are JSON records in
/// `__metadata__` (see impl/checkpoint_record.hpp, impl/optimizer_record.hpp), validated like
/// user input (types, ranges, every field present). A type of your own takes part through
/// kt::io::CheckpointPart (kt/io/checkpoint_part.hpp).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/checkpoint_part.hpp"
#include "kt/io/impl/checkpoint_record.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/io/safetensors.hpp"

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kt::io {

/// Components of a run, gathered for one atomic save.
class Checkpoint {
public:
  /// Adds `part` under `name`: a module (its state_dict as tensors "<name>.<key>", and the
  /// generators of its Dropout layers), an optimizer (state and hyperparameters), a learning
  /// rate scheduler, a GradScaler, a Generator, a DataLoader (the epoch of its next pass and
  /// the settings that decide its order), or a type of your own (kt/io/checkpoint_part.hpp).
  template <class X>
  Checkpoint& add(const std::string& name, const X& part) {
    claim(name);
    CheckpointPart<X>::save(tensors_, metadata_, name, part);
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
  CheckpointRecords metadata_{{"format", "pt"}};
  std::set<std::string> names_;
};

/// A saved checkpoint, opened and validated; components are restored on request, each
/// completely or not at all (kt::io::Restore restores several the same way).
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

  /// Restores the component saved as `name` into `target`: a module (strict as kt::io::load:
  /// every key, dtype and shape; its type and Dropout generators), an optimizer, a learning
  /// rate scheduler, a GradScaler, a Generator, a DataLoader (its epoch; kt::Error when it
  /// orders its samples otherwise than the saved one) or a type of your own
  /// (kt/io/checkpoint_part.hpp). Nothing changes unless all of it is good.
  template <class Target>
  void restore(const std::string& name, Target& target) const {
    CheckpointPart<Target>::stage(file_, name, target)();
  }

private:
  SafetensorsFile file_;
};

/// Opens and validates a checkpoint written by Checkpoint::save.
inline CheckpointFile load_checkpoint(const std::string& path) { return CheckpointFile(load_safetensors(path)); }

/// Several components restored from one checkpoint as one transaction: from() reads and checks
/// every part first and changes them only when all are good; on a kt::Error every object is
/// as it was, and the message ends "(nothing was restored)".
class Restore {
public:
  /// The component saved as `name` goes into `target` (any type CheckpointFile::restore takes),
  /// restored in the order added. `target` must outlive from().
  template <class Target>
  Restore& add(const std::string& name, Target& target) {
    for (const auto& part : parts_)
      KT_REQUIRE(part.first != name, "kt::io::Restore: the name '", impl::printable(name), "' is added twice");
    parts_.emplace_back(name, [name, &target](const SafetensorsFile& file) {
      return CheckpointPart<Target>::stage(file, name, target);
    });
    return *this;
  }

  void from(const CheckpointFile& checkpoint) const {
    std::vector<RestoreCommit> commits;
    try {
      for (const auto& [name, stage] : parts_) commits.push_back(stage(checkpoint.file()));
    } catch (const Error& e) {
      KT_THROW(e.message(), " (nothing was restored)");
    }
    for (const auto& commit : commits) commit();
  }
  void from(const std::string& path) const { from(load_checkpoint(path)); }

private:
  std::vector<std::pair<std::string, std::function<RestoreCommit(const SafetensorsFile&)>>> parts_;
};

}  // namespace kt::io

#include "kt/core/impl/public_end.hpp"
