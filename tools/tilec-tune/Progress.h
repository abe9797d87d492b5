//===- Progress.h - The compile phase's progress display --------*- C++ -*-===//
//
// On a terminal, one status line redrawn in place (and once a second while
// nothing finishes), with the messages printed above it:
//
//   [##########..........]  123/300  41%  0:37 elapsed  ETA 0:52  2 failed
//
// Elsewhere (a log, a pipe) one plain line per finished job, prefixed with
// the count: `[123/300] gemm-block_K_64 sm_90a: 168 registers, ... (1.2 s)`.
// Every method may be called from any thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNE_PROGRESS_H
#define TILEC_TOOLS_TILEC_TUNE_PROGRESS_H

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace tilec {

/// Reports the progress of `Total` jobs to a stream.
class Progress {
public:
  /// Starts reporting to `OS`; `Redraw` selects the terminal display.
  Progress(llvm::raw_ostream &OS, std::size_t Total, bool Redraw);
  /// Stops the display (as finish() does).
  ~Progress();

  /// Records that a job finished, failed or not, with its line (without a
  /// newline). On a terminal only failures' lines are printed.
  void jobFinished(const std::string &Line, bool Failed);
  /// Prints `Line` (without a newline) above the status line.
  void message(const std::string &Line);
  /// Clears the status line for good; nothing is drawn after it.
  void finish();

private:
  /// Returns the status line; called with the lock held.
  std::string formatStatus() const;
  /// Redraws the status line; called with the lock held.
  void draw();

  llvm::raw_ostream &OS;
  const std::size_t Total;
  const bool Redraw;
  const std::chrono::steady_clock::time_point Start;
  std::size_t Done = 0;
  std::size_t Failures = 0;
  bool Finished = false;
  std::mutex Lock;
  std::condition_variable Wake;
  /// Redraws the status line every second, on a terminal.
  std::thread Ticker;
};

/// Returns `Seconds` as `m:ss` (or `h:mm:ss`).
std::string formatDuration(double Seconds);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_TUNE_PROGRESS_H
