//===- TestReport.h - Results of the GPU test run ---------------*- C++ -*-===//

#ifndef TILERT_TEST_GPU_TESTREPORT_H
#define TILERT_TEST_GPU_TESTREPORT_H

#include <nlohmann/json.hpp>

#include <mutex>
#include <string>

namespace tilert::gputest {

/// Collects test results, printing each as it arrives. Thread-safe.
class TestReport {
public:
  /// Records `name` as passed (or failed) with `detail`, and prints it.
  void record(const std::string &name, bool passed, const std::string &detail,
              nlohmann::json data = nlohmann::json::object());

  /// Prints and records an informational note (neither pass nor fail).
  void note(const std::string &text);

  /// The number of failed tests.
  int failures() const;

  /// Prints the totals.
  void printSummary() const;

  /// Every result and note, for --json.
  nlohmann::json toJson() const;

private:
  mutable std::mutex Mutex;
  nlohmann::json Results = nlohmann::json::array();
  nlohmann::json Notes = nlohmann::json::array();
  int Passed = 0;
  int Failed = 0;
};

} // namespace tilert::gputest

#endif // TILERT_TEST_GPU_TESTREPORT_H
