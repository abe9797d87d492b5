//===- TuningDatabase.cpp - Writing a package's tuning.json ---------------===//

#include "TuningDatabase.h"

#include "FileIO.h"
#include "Workload.h"

#include "tilert/tilert.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>

namespace tilebench {

namespace {

using json = nlohmann::ordered_json;

/// The schema tile-bench writes.
constexpr const char *kTuningSchema = "tilec.tuning/1";

json variantJson(const std::optional<TimedVariant> &variant) {
  if (!variant)
    return nullptr;
  return {{"variant", variant->Name},
          {"arch", variant->Arch},
          {"median_ms", variant->MedianMs}};
}

/// The current time, `2026-12-02T19:04:05Z`.
std::string utcNow() {
  std::time_t Now =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm Parts{};
  gmtime_r(&Now, &Parts);
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%dT%H:%M:%SZ", &Parts);
  return Text;
}

json deviceJson(const TunedDevice &device) {
  json Shapes = json::array();
  for (const TunedShape &Shape : device.Shapes) {
    json Dims = json::object();
    for (const auto &[Name, Value] : Shape.Dims)
      Dims[Name] = Value;
    json Excluded = json::array();
    for (const ExcludedVariant &Variant : Shape.Excluded)
      Excluded.push_back({{"variant", Variant.Name},
                          {"arch", Variant.Arch},
                          {"reason", Variant.Reason}});
    json Final = json::array();
    for (const TimedVariant &Variant : Shape.FinalRound)
      Final.push_back(variantJson(Variant));
    Shapes.push_back({{"dims", std::move(Dims)},
                      {"best", variantJson(Shape.Best)},
                      {"runner_up", variantJson(Shape.RunnerUp)},
                      {"default", variantJson(Shape.Default)},
                      {"candidates", Shape.Candidates},
                      {"measured", Shape.Measured},
                      {"final_round", std::move(Final)},
                      {"excluded", std::move(Excluded)}});
  }
  return {{"device", device.Device},
          {"arch", device.Arch},
          {"ordinals", device.Ordinals},
          {"tool", std::string("tile-bench ") + tilertGetVersion()},
          {"date", utcNow()},
          {"warmup", device.Warmup},
          {"reps", device.Reps},
          {"finalists", device.Finalists},
          {"final_rounds", device.FinalRounds},
          {"tolerance", device.Tolerance},
          {"shapes", std::move(Shapes)}};
}

} // namespace

std::string writeTuningDatabase(const std::string &path,
                                const TunablePackage &index,
                                const std::vector<TunedDevice> &devices) {
  std::string Warning;
  json Devices = json::array();
  for (const TunedDevice &Device : devices)
    Devices.push_back(deviceJson(Device));
  std::string Bytes;
  if (tilert::detail::readFile(path, Bytes).ok()) {
    json Old = json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
    bool Mergeable =
        Old.is_object() && Old.value("schema", "") == kTuningSchema &&
        Old.value("kernel", "") == index.Kernel && Old.contains("package") &&
        Old["package"].is_object() &&
        Old["package"].value("index_sha256", "") == index.IndexSha256 &&
        Old.contains("devices") && Old["devices"].is_array();
    if (Mergeable) {
      for (const json &Entry : Old["devices"]) {
        bool Replaced = false;
        for (const TunedDevice &Device : devices)
          Replaced |=
              Entry.is_object() && Entry.value("device", "") == Device.Device;
        if (!Replaced)
          Devices.push_back(Entry);
      }
    } else {
      Warning = "tile-bench: warning: replacing " + path +
                " (not a tuning database of this package's index.json)";
    }
  }
  json Root = {{"schema", kTuningSchema},
               {"kernel", index.Kernel},
               {"package", {{"index_sha256", index.IndexSha256}}},
               {"devices", std::move(Devices)}};
  std::random_device Random;
  std::string Temporary = path + ".tmp-" + std::to_string(Random());
  {
    std::ofstream Out(Temporary, std::ios::binary);
    Out << Root.dump(2) << "\n";
    if (!Out) {
      std::error_code Ignored;
      std::filesystem::remove(Temporary, Ignored);
      throw BenchError("cannot write " + path);
    }
  }
  std::error_code Error;
  std::filesystem::rename(Temporary, path, Error);
  if (Error) {
    std::filesystem::remove(Temporary, Error);
    throw BenchError("cannot write " + path);
  }
  return Warning;
}

} // namespace tilebench
