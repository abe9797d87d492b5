//===- Progress.cpp - A progress display for the tuning tools -------------===//

#include "Progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

using namespace tilec;

std::string tilec::formatDuration(double Seconds) {
  long Total = std::lround(std::max(Seconds, 0.0));
  char Buffer[32];
  if (Total >= 3600)
    std::snprintf(Buffer, sizeof(Buffer), "%ld:%02ld:%02ld", Total / 3600,
                  Total / 60 % 60, Total % 60);
  else
    std::snprintf(Buffer, sizeof(Buffer), "%ld:%02ld", Total / 60, Total % 60);
  return Buffer;
}

Progress::Progress(Writer Write, std::size_t Total, bool Redraw)
    : Write(std::move(Write)), Total(Total), Redraw(Redraw),
      Start(std::chrono::steady_clock::now()) {
  if (!Redraw)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  draw();
  Ticker = std::thread([this] {
    std::unique_lock<std::mutex> Guard(Lock);
    while (!Finished) {
      Wake.wait_for(Guard, std::chrono::seconds(1));
      if (!Finished)
        draw();
    }
  });
}

Progress::~Progress() { finish(); }

std::string Progress::formatStatus() const {
  constexpr std::size_t Width = 24;
  std::size_t Filled = Total ? Done * Width / Total : Width;
  double Elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  std::string Line =
      "[" + std::string(Filled, '#') + std::string(Width - Filled, '.') + "] ";
  char Counts[64];
  std::snprintf(Counts, sizeof(Counts), "%zu/%zu %3zu%%", Done, Total,
                Total ? Done * 100 / Total : 100);
  Line += Counts;
  Line += "  " + formatDuration(Elapsed) + " elapsed";
  if (Done != 0 && Done != Total)
    Line += "  ETA " + formatDuration(Elapsed / Done * (Total - Done));
  if (Failures)
    Line += "  " + std::to_string(Failures) + " failed";
  return Line;
}

void Progress::draw() {
  Write("\r" + formatStatus() + "\x1b[K");
}

void Progress::jobFinished(const std::string &Line, bool Failed) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Done;
  Failures += Failed;
  if (!Redraw) {
    int Digits = static_cast<int>(std::to_string(Total).size());
    char Count[64];
    std::snprintf(Count, sizeof(Count), "[%*zu/%zu] ", Digits, Done, Total);
    Write(Count + Line + "\n");
    return;
  }
  if (Finished)
    return;
  if (Failed)
    Write("\r\x1b[K" + Line + "\n");
  draw();
}

void Progress::message(const std::string &Line) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Redraw || Finished) {
    Write(Line + "\n");
    return;
  }
  Write("\r\x1b[K" + Line + "\n");
  draw();
}

void Progress::finish() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Finished)
      return;
    Finished = true;
    if (Redraw)
      Write("\r\x1b[K");
  }
  Wake.notify_all();
  if (Ticker.joinable())
    Ticker.join();
}
