//===- MeasurementCache.cpp - The benchmark phase's results cache ---------===//

#include "MeasurementCache.h"

#include "FileIO.h"
#include "Sha256.h"
#include "compiler/Cache/CacheDirectory.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

namespace tilebench {

namespace {

/// The schema of a cache entry.
constexpr const char *kEntrySchema = "tilec.bench-cache/1";

/// The value of the environment variable `name`, if set.
std::optional<std::string> environment(const char *name) {
  if (const char *Value = std::getenv(name))
    return std::string(Value);
  return std::nullopt;
}

} // namespace

MeasurementCache::MeasurementCache(std::string directory, bool readEntries)
    : Directory(std::move(directory)), ReadEntries(readEntries) {}

std::string MeasurementCache::defaultDirectory() {
  std::string Root = tilec::cacheRootDirectory(environment("TILEC_CACHE_DIR"),
                                               environment("XDG_CACHE_HOME"),
                                               environment("HOME"));
  return Root.empty() ? Root : Root + "/bench";
}

std::string MeasurementCache::keyOf(const std::string &description) {
  return tilert::detail::sha256Hex(description);
}

std::string MeasurementCache::entryPath(const std::string &key) const {
  return Directory + "/" + key.substr(0, 2) + "/" + key + ".json";
}

std::optional<Measurement>
MeasurementCache::lookup(const std::string &key, std::string &warning) const {
  if (Directory.empty() || !ReadEntries)
    return std::nullopt;
  std::string Path = entryPath(key);
  std::error_code Error;
  if (!std::filesystem::exists(Path, Error))
    return std::nullopt;
  std::string Bytes;
  nlohmann::json Entry;
  if (tilert::detail::readFile(Path, Bytes).ok())
    Entry = nlohmann::json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  bool Valid = Entry.is_object() && Entry.value("schema", "") == kEntrySchema &&
               Entry.value("key", "") == key && Entry.contains("measured") &&
               Entry["measured"].is_boolean();
  Measurement Result;
  if (Valid) {
    Result.Measured = Entry["measured"].get<bool>();
    if (Result.Measured) {
      Valid = Entry.contains("median_ms") && Entry["median_ms"].is_number() &&
              Entry.contains("min_ms") && Entry["min_ms"].is_number() &&
              Entry.contains("max_ms") && Entry["max_ms"].is_number();
      if (Valid) {
        Result.MedianMs = Entry["median_ms"].get<double>();
        Result.MinMs = Entry["min_ms"].get<double>();
        Result.MaxMs = Entry["max_ms"].get<double>();
      }
    } else {
      Valid = Entry.contains("reason") && Entry["reason"].is_string();
      if (Valid)
        Result.Reason = Entry["reason"].get<std::string>();
    }
  }
  if (Valid)
    return Result;
  std::filesystem::remove(Path, Error);
  warning = "tile-bench: warning: measurement cache entry '" + Path +
            "' is corrupt; removing it and measuring again";
  return std::nullopt;
}

std::string MeasurementCache::store(const std::string &key,
                                    const Measurement &result) const {
  if (Directory.empty())
    return "";
  nlohmann::json Entry = {
      {"schema", kEntrySchema}, {"key", key}, {"measured", result.Measured}};
  if (result.Measured) {
    Entry["median_ms"] = result.MedianMs;
    Entry["min_ms"] = result.MinMs;
    Entry["max_ms"] = result.MaxMs;
  } else {
    Entry["reason"] = result.Reason;
  }
  std::string Path = entryPath(key);
  std::error_code Error;
  std::filesystem::create_directories(std::filesystem::path(Path).parent_path(),
                                      Error);
  // Written beside the entry under a unique name, then renamed over it:
  // readers never see a partial file, and concurrent writers of one key
  // leave one complete entry.
  std::random_device Random;
  std::string Temporary =
      Path + ".tmp-" + std::to_string(Random()) + std::to_string(Random());
  {
    std::ofstream Out(Temporary, std::ios::binary);
    Out << Entry.dump() << "\n";
    if (!Out)
      Error = std::make_error_code(std::errc::io_error);
  }
  if (!Error)
    std::filesystem::rename(Temporary, Path, Error);
  if (!Error)
    return "";
  std::filesystem::remove(Temporary, Error);
  return "tile-bench: warning: cannot write the measurement cache entry '" +
         Path + "'; the result is not cached";
}

} // namespace tilebench
