//===- Progress.h - A progress display for the tuning tools ----*- C++ -*-===//
//
// On a terminal, one status line redrawn in place (and once a second while
// nothing finishes), with the messages printed above it:
//
//   [##########..........]  123/300  41%  0:37 elapsed  ETA 0:52  2 failed
//
// Elsewhere (a log, a pipe) one plain line per finished job, prefixed with
// the count: `[123/300] gemm-block_K_64 sm_90a: 168 registers, ... (1.2 s)`.
// Every method may be called from any thread. Used by tilec-tune's compile
// phase and tile-bench's benchmark phase, so it needs nothing but the C++
// library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_SUPPORT_PROGRESS_H
#define TILEC_TOOLS_SUPPORT_PROGRESS_H

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tilec {

/// Reports the progress of `Total` jobs to a stream.
class Progress {
public:
  /// Writes text (no newline added) and flushes it, e.g. to stderr.
  using Writer = std::function<void(const std::string &Text)>;

  /// Starts reporting through `Write`; `Redraw` selects the terminal display.
  Progress(Writer Write, std::size_t Total, bool Redraw);
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

  const Writer Write;
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

#endif // TILEC_TOOLS_SUPPORT_PROGRESS_H
