#pragma once
// A checkpoint's records: each saved component (optimizer, scheduler, generator, data loader,
// module) leaves one `__metadata__` entry, a JSON object {"kind": ..., fields...} under the
// component's name. Reading treats them as hostile like the rest of the file: the text's
// nesting is bounded before it is parsed, and every field is checked for type and range, so a
// bad checkpoint is a kt::Error naming the file, the record and the field.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/json.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/io/impl/safetensors_header.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace kt::impl {

/// The error prefix for record `name` of checkpoint `path`.
KT_INLINE_UNLESS_COMPILED std::string record_where(const std::string& path, const std::string& name);

/// The record `name` of `metadata`, parsed, with "kind" == `kind`.
KT_INLINE_UNLESS_COMPILED Json read_record(const std::map<std::string, std::string>& metadata,
                                           const std::string& path, const std::string& name, const char* kind);

/// Field `field` of `record` as a non-negative integer, a finite number, a string.
KT_INLINE_UNLESS_COMPILED std::uint64_t record_count(const Json& record, const char* field,
                                                     const std::string& where);
KT_INLINE_UNLESS_COMPILED double record_number(const Json& record, const char* field,
                                               const std::string& where);
KT_INLINE_UNLESS_COMPILED std::string record_string(const Json& record, const char* field,
                                                    const std::string& where);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)

KT_INLINE_UNLESS_COMPILED std::string record_where(const std::string& path, const std::string& name) {
  return "kt::io::load_checkpoint: '" + printable(path, 200) + "', record '" + printable(name) + "': ";
}

KT_INLINE_UNLESS_COMPILED Json read_record(const std::map<std::string, std::string>& metadata,
                                           const std::string& path, const std::string& name, const char* kind) {
  const std::string where = record_where(path, name);
  const auto it = metadata.find(name);
  KT_REQUIRE(it != metadata.end(), where, "not in the checkpoint (it holds no ", kind, " of that name)");
  // Records nest at most 3 levels (the optimizer's param_groups); 8 leaves room and still
  // keeps the recursive parser's stack small whatever the file says.
  KT_REQUIRE(json_depth(it->second) <= 8, where, "the record nests more than 8 levels deep");
  Json record;
  JsonError error;
  KT_REQUIRE(json_parse(it->second, record, error, 8) && record.is_object(), where, "not a JSON object");
  KT_REQUIRE(record.get("kind").is_string(), where, "has no \"kind\"");
  KT_REQUIRE(record.get("kind").as_string() == kind, where, "is a ", printable(record.get("kind").as_string()),
             " record, not a ", kind, " one");
  return record;
}

KT_INLINE_UNLESS_COMPILED std::uint64_t record_count(const Json& record, const char* field,
                                                     const std::string& where) {
  KT_REQUIRE(record.get(field).is_unsigned(), where, "field \"", field, "\" is not a non-negative integer");
  return record.get(field).as_unsigned();
}

KT_INLINE_UNLESS_COMPILED double record_number(const Json& record, const char* field,
                                               const std::string& where) {
  KT_REQUIRE(record.get(field).is_number(), where, "field \"", field, "\" is not a number");
  return record.get(field).as_double();
}

KT_INLINE_UNLESS_COMPILED std::string record_string(const Json& record, const char* field,
                                                    const std::string& where) {
  KT_REQUIRE(record.get(field).is_string(), where, "field \"", field, "\" is not a string");
  return record.get(field).as_string();
}

#endif

}  // namespace kt::impl
