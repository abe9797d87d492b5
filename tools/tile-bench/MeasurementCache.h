//===- MeasurementCache.h - The benchmark phase's results cache -*- C++ -*-===//
//
// A measured variant is recorded under a key over everything its result
// depends on (the variant's and the reference's metadata bytes, which hold
// their binaries' digests; the device's name; the dims and scalars; the
// method: warm-up, repetitions, tolerance, seed, time limit; the version of
// tile-bench), so that a second tuning run skips what it has measured.
// Entries are files `<dir>/<2 hex>/<64 hex>.json`, written atomically; an
// unreadable one is reported and measured again.
//
//===----------------------------------------------------------------------===//

#ifndef TILEBENCH_MEASUREMENTCACHE_H
#define TILEBENCH_MEASUREMENTCACHE_H

#include <optional>
#include <string>

namespace tilebench {

/// What the benchmark phase found for one variant at one shape.
struct Measurement {
  /// True if the variant was validated and timed; false if it was excluded.
  bool Measured = false;
  /// The median, fastest and slowest repetition, in milliseconds.
  double MedianMs = 0;
  double MinMs = 0;
  double MaxMs = 0;
  /// Why it was excluded (a wrong result, over the time limit, ...).
  std::string Reason;
};

/// The cache of measurements.
class MeasurementCache {
public:
  /// The cache in `directory`; an empty directory disables it. With
  /// `readEntries` false, lookups miss and results are still recorded
  /// (TILEC_AUTOTUNE_DISABLE_CACHE=1: measure again).
  MeasurementCache(std::string directory, bool readEntries);

  /// The default directory: `$TILEC_CACHE_DIR/bench`, else
  /// `$XDG_CACHE_HOME/tilec/bench` (an absolute XDG_CACHE_HOME), else
  /// `$HOME/.cache/tilec/bench`; empty if none is set.
  static std::string defaultDirectory();

  /// The 64-hex-digit key of `description`, the text of everything the
  /// measurement depends on.
  static std::string keyOf(const std::string &description);

  /// The recorded measurement under `key`, if any. A corrupt entry is
  /// removed and `warning` set to say so.
  std::optional<Measurement> lookup(const std::string &key,
                                    std::string &warning) const;

  /// Records `result` under `key`. Returns a warning if it cannot be
  /// written (the run goes on), else "".
  std::string store(const std::string &key, const Measurement &result) const;

  /// The directory, "" when disabled.
  const std::string &directory() const { return Directory; }

private:
  std::string entryPath(const std::string &key) const;

  std::string Directory;
  bool ReadEntries;
};

} // namespace tilebench

#endif // TILEBENCH_MEASUREMENTCACHE_H
