//===- JsonReader.h - Validated reads of JSON documents ---------*- C++ -*-===//
//
// What every JSON file the runtime reads (kernel metadata, a package's
// index.json, its tuning.json) is checked with: parsing with messages that
// tell truncated input from corrupt input, typed reads of required fields,
// and schema versions. Every error is TILERT_ERROR_METADATA naming the file
// and the field's path (`params[2].shape[0]`).
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_JSONREADER_H
#define TILERT_LIB_JSONREADER_H

#include "Status.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace tilert::detail {

/// Returns the kind of `value` for messages ("an object", "a string").
const char *describeJsonType(const nlohmann::json &value);

/// Returns the path of member `key` of the field at `parent` ("" for the
/// top level): "launch.grid".
std::string jsonMember(const std::string &parent, const char *key);

/// Returns the path of element `index` of the array at `parent`:
/// "params[2]".
std::string jsonElement(const std::string &parent, size_t index);

/// Whether `text` is a sha256 digest in lowercase hex (64 digits).
bool isSha256Hex(std::string_view text);

/// Parses `text`, the contents of the file `path`, into `out`. An empty
/// file, input that ends early and corrupt input are TILERT_ERROR_METADATA
/// errors that say which, with the parser's position.
Status parseJson(std::string_view text, const std::string &path,
                 nlohmann::json &out);

/// Typed reads of the fields of one document; every error names the file
/// and the field.
class JsonReader {
public:
  /// A reader for the document read from `path` (referenced, not copied).
  explicit JsonReader(const std::string &path) : Path(path) {}

  /// The error "PATH: field 'FIELD': PARTS...".
  template <typename... Ts>
  Status fail(const std::string &field, const Ts &...parts) const {
    return makeError(TILERT_ERROR_METADATA, Path, ": field '", field,
                     "': ", parts...);
  }

  /// Sets `out` to member `key` of `object` (at `parent`); missing is an
  /// error.
  Status find(const nlohmann::json &object, const std::string &parent,
              const char *key, const nlohmann::json *&out) const;

  /// find() of a member that must be an object.
  Status getObject(const nlohmann::json &object, const std::string &parent,
                   const char *key, const nlohmann::json *&out) const;

  /// find() of a member that must be an array.
  Status getArray(const nlohmann::json &object, const std::string &parent,
                  const char *key, const nlohmann::json *&out) const;

  /// Reads `value` (the field `field`) as a non-empty string.
  Status asString(const nlohmann::json &value, const std::string &field,
                  std::string &out) const;

  /// Reads member `key` of `object` as a non-empty string.
  Status getString(const nlohmann::json &object, const std::string &parent,
                   const char *key, std::string &out) const;

  /// Reads `value` (the field `field`) as an integer in [min, max].
  Status asInt(const nlohmann::json &value, const std::string &field,
               int64_t min, int64_t max, int64_t &out) const;

  /// Reads member `key` of `object` as an integer in [min, max].
  Status getInt(const nlohmann::json &object, const std::string &parent,
                const char *key, int64_t min, int64_t max, int64_t &out) const;

  /// Reads member `key` of `object` as a sha256 digest (isSha256Hex).
  Status getSha256(const nlohmann::json &object, const std::string &parent,
                   const char *key, std::string &out) const;

  /// Checks that the top-level `schema` of `root` is `prefix` followed by
  /// MAJOR[.MINOR] with MAJOR equal to `major`, any MINOR; `kind` names the
  /// schema in messages ("kernel": "is not a tilec kernel schema").
  Status checkSchema(const nlohmann::json &root, std::string_view prefix,
                     int major, const char *kind) const;

protected:
  /// The file's path, as messages name it.
  const std::string &Path;
};

} // namespace tilert::detail

#endif // TILERT_LIB_JSONREADER_H
