//===- TestReport.cpp - Results of the GPU test run -----------------------===//

#include "TestReport.h"

#include <cstdio>

namespace tilert::gputest {

void TestReport::record(const std::string &name, bool passed,
                        const std::string &detail, nlohmann::json data) {
  std::lock_guard<std::mutex> Lock(Mutex);
  (passed ? Passed : Failed) += 1;
  std::printf("[%s] %s%s%s\n", passed ? "PASS" : "FAIL", name.c_str(),
              detail.empty() ? "" : ": ", detail.c_str());
  std::fflush(stdout);
  data["name"] = name;
  data["passed"] = passed;
  data["detail"] = detail;
  Results.push_back(std::move(data));
}

void TestReport::note(const std::string &text) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::printf("[NOTE] %s\n", text.c_str());
  std::fflush(stdout);
  Notes.push_back(text);
}

int TestReport::failures() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Failed;
}

void TestReport::printSummary() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::printf("%d passed, %d failed\n", Passed, Failed);
}

nlohmann::json TestReport::toJson() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return {{"passed", Passed},
          {"failed", Failed},
          {"results", Results},
          {"notes", Notes}};
}

} // namespace tilert::gputest
