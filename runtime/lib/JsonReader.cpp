//===- JsonReader.cpp - Validated reads of JSON documents -------*- C++ -*-===//

#include "JsonReader.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace tilert::detail {

namespace {

using json = nlohmann::json;

bool isDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char C) {
    return C >= '0' && C <= '9';
  });
}

} // namespace

const char *describeJsonType(const json &value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "an integer";
  case json::value_t::number_float:
    return "a non-integer number";
  case json::value_t::binary:
  case json::value_t::discarded:
    break;
  }
  return "an unsupported value";
}

std::string jsonMember(const std::string &parent, const char *key) {
  return parent.empty() ? std::string(key) : parent + "." + key;
}

std::string jsonElement(const std::string &parent, size_t index) {
  return strCat(parent, "[", index, "]");
}

bool isSha256Hex(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char C) {
           return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
         });
}

Status parseJson(std::string_view text, const std::string &path, json &out) {
  if (std::all_of(text.begin(), text.end(), [](char C) {
        return std::isspace(static_cast<unsigned char>(C));
      }))
    return makeError(TILERT_ERROR_METADATA, path,
                     ": truncated JSON: the file is empty");
  try {
    out = json::parse(text);
  } catch (const json::parse_error &Error) {
    // nlohmann's message: "[json.exception.parse_error.N] parse error at line
    // L, column C: ...". A position past the last byte means the parser ran
    // out of input.
    std::string Message = Error.what();
    size_t Start = Message.find("] ");
    if (Start != std::string::npos)
      Message.erase(0, Start + 2);
    bool Truncated = Error.byte > text.size();
    return makeError(TILERT_ERROR_METADATA, path,
                     Truncated ? ": truncated JSON (the input ends early): "
                               : ": corrupt JSON: ",
                     Message);
  }
  return Status::success();
}

Status JsonReader::find(const json &object, const std::string &parent,
                        const char *key, const json *&out) const {
  auto It = object.find(key);
  if (It == object.end())
    return makeError(TILERT_ERROR_METADATA, Path, ": missing required field '",
                     jsonMember(parent, key), "'");
  out = &*It;
  return Status::success();
}

Status JsonReader::getObject(const json &object, const std::string &parent,
                             const char *key, const json *&out) const {
  TILERT_TRY(find(object, parent, key, out));
  if (!out->is_object())
    return fail(jsonMember(parent, key), "expected an object, found ",
                describeJsonType(*out));
  return Status::success();
}

Status JsonReader::getArray(const json &object, const std::string &parent,
                            const char *key, const json *&out) const {
  TILERT_TRY(find(object, parent, key, out));
  if (!out->is_array())
    return fail(jsonMember(parent, key), "expected an array, found ",
                describeJsonType(*out));
  return Status::success();
}

Status JsonReader::asString(const json &value, const std::string &field,
                            std::string &out) const {
  if (!value.is_string())
    return fail(field, "expected a string, found ", describeJsonType(value));
  out = value.get<std::string>();
  if (out.empty())
    return fail(field, "must not be empty");
  return Status::success();
}

Status JsonReader::getString(const json &object, const std::string &parent,
                             const char *key, std::string &out) const {
  const json *Value = nullptr;
  TILERT_TRY(find(object, parent, key, Value));
  return asString(*Value, jsonMember(parent, key), out);
}

Status JsonReader::asInt(const json &value, const std::string &field,
                         int64_t min, int64_t max, int64_t &out) const {
  if (!value.is_number_integer())
    return fail(field, "expected an integer, found ", describeJsonType(value));
  constexpr uint64_t Int64Max = std::numeric_limits<int64_t>::max();
  bool Fits = !value.is_number_unsigned() || value.get<uint64_t>() <= Int64Max;
  int64_t Value = Fits ? value.get<int64_t>() : 0;
  if (!Fits || Value < min || Value > max)
    return fail(field, "expected an integer in [", min, ", ", max, "], found ",
                value.dump());
  out = Value;
  return Status::success();
}

Status JsonReader::getInt(const json &object, const std::string &parent,
                          const char *key, int64_t min, int64_t max,
                          int64_t &out) const {
  const json *Value = nullptr;
  TILERT_TRY(find(object, parent, key, Value));
  return asInt(*Value, jsonMember(parent, key), min, max, out);
}

Status JsonReader::getSha256(const json &object, const std::string &parent,
                             const char *key, std::string &out) const {
  TILERT_TRY(getString(object, parent, key, out));
  if (!isSha256Hex(out))
    return fail(jsonMember(parent, key), "'", out,
                "' is not a sha256 digest (64 lowercase hex digits)");
  return Status::success();
}

Status JsonReader::checkSchema(const json &root, std::string_view prefix,
                               int major, const char *kind) const {
  std::string Schema;
  TILERT_TRY(getString(root, "", "schema", Schema));
  std::string_view Version(Schema);
  if (Version.substr(0, prefix.size()) != prefix)
    return fail("schema", "'", Schema, "' is not a tilec ", kind,
                " schema (this runtime reads ", prefix, major, ")");
  Version.remove_prefix(prefix.size());
  std::string_view Major = Version.substr(0, Version.find('.'));
  std::string_view Minor = Version.substr(Major.size());
  bool WellFormed =
      Major.size() <= 9 && isDigits(Major) &&
      (Minor.empty() || (Minor.size() <= 10 && isDigits(Minor.substr(1))));
  if (!WellFormed)
    return fail("schema", "'", Schema, "' is not of the form ", prefix,
                "MAJOR[.MINOR]");
  if (std::stoi(std::string(Major)) != major)
    return fail("schema", "unsupported schema major version ", Major, " in '",
                Schema, "' (this runtime reads ", prefix, major, ")");
  return Status::success();
}

} // namespace tilert::detail
