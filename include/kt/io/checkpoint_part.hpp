#pragma once
/// \file kt/io/checkpoint_part.hpp
/// What kt::io::Checkpoint can save and kt::io::Restore can restore: any type X for which
/// `kt::io::CheckpointPart<X>` says how. kt's own parts are modules, optimizers, learning rate
/// schedulers, the GradScaler, generators and data loaders (kt/io/impl/checkpoint_parts.hpp).
/// A type of your own joins by specialising the template, with the same two sides kt's parts
/// have — `save` adds tensors and records, `stage` reads and checks everything and returns
/// what applies it, so that a restore of several parts stays all or nothing:
///
///     template <>
///     struct kt::io::CheckpointPart<Counter> {
///       static void save(kt::io::NamedTensors& tensors, kt::io::CheckpointRecords& records,
///                        const std::string& name, const Counter& c) {
///         records[name] = std::to_string(c.value);            // a string in __metadata__
///       }
///       static kt::io::RestoreCommit stage(const kt::io::SafetensorsFile& file,
///                                          const std::string& name, Counter& c) {
///         const int value = parse(file.metadata().at(name));  // throw kt::Error when bad
///         return [&c, value] { c.value = value; };            // only assigns
///       }
///     };
///
/// Records are `__metadata__` strings under the part's name; tensors go under "<name>.<key>".

#include "kt/core/impl/public_begin.hpp"

#include "kt/io/impl/checkpoint_parts.hpp"
#include "kt/io/named_tensors.hpp"
#include "kt/io/safetensors.hpp"

#include <string>

namespace kt::io {

/// What a part's stage returns: assigns values already checked, never throws a kt::Error.
using RestoreCommit = impl::RestoreCommit;
/// A checkpoint's records, name -> string (the safetensors file's `__metadata__`).
using CheckpointRecords = impl::CheckpointRecords;

/// How an X is saved into and restored from a checkpoint; by default kt's own parts.
template <class X>
struct CheckpointPart {
  static_assert(impl::is_builtin_checkpoint_part_v<X>,
                "kt::io::Checkpoint: this type is not a checkpoint part (kt saves modules, optimizers, "
                "schedulers, GradScaler, Generator and DataLoader); for a type of your own specialise "
                "kt::io::CheckpointPart<X> with save() and stage() (kt/io/checkpoint_part.hpp)");

  static void save(NamedTensors& tensors, CheckpointRecords& records, const std::string& name, const X& x) {
    impl::save_part(tensors, records, name, x);
  }
  static RestoreCommit stage(const SafetensorsFile& file, const std::string& name, X& x) {
    return impl::stage_restore(file, name, x);
  }
};

}  // namespace kt::io

#include "kt/core/impl/public_end.hpp"
