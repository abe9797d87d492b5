//===- PtxasReport.cpp - Resource usage from `ptxas -v` -------------------===//
//
// The report looks like this (one block per function; the `Used` line
// belongs to the entry named by the last `Compiling entry function` line):
//
//   ptxas info    : Compiling entry function 'k' for 'sm_80'
//   ptxas info    : Function properties for k
//       256 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
//   ptxas info    : Used 8 registers, used 1 barriers, 1024 bytes smem,
//                   256 bytes cumulative stack size, 364 bytes cmem[0]
//
// and, for code ptxas had to slow down, numbered notes that end with the
// function they are about:
//
//   ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async
//                   instructions are serialized due to ... in the function 'k'
//
//===----------------------------------------------------------------------===//

#include "codegen/PtxasReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tilec;

namespace {
/// Splits `item` ("256 bytes stack frame") into its leading number and the
/// rest; returns false if it does not start with a number.
bool splitCount(llvm::StringRef item, uint64_t &count, llvm::StringRef &rest) {
  item = item.trim();
  llvm::StringRef digits = item.take_while(llvm::isDigit);
  if (digits.empty() || digits.getAsInteger(10, count))
    return false;
  rest = item.drop_front(digits.size()).trim();
  return true;
}

/// The stack/spill line of one function.
struct FrameInfo {
  uint64_t stackFrame = 0;
  uint64_t spillStores = 0;
  uint64_t spillLoads = 0;
};

FrameInfo parseFrameLine(llvm::StringRef line) {
  FrameInfo frame;
  llvm::SmallVector<llvm::StringRef> items;
  line.split(items, ',');
  for (llvm::StringRef item : items) {
    uint64_t count;
    llvm::StringRef what;
    if (!splitCount(item, count, what))
      continue;
    if (what == "bytes stack frame")
      frame.stackFrame = count;
    else if (what == "bytes spill stores")
      frame.spillStores = count;
    else if (what == "bytes spill loads")
      frame.spillLoads = count;
  }
  return frame;
}

void parseUsedLine(llvm::StringRef line, PtxasResources &resources) {
  llvm::SmallVector<llvm::StringRef> items;
  line.split(items, ',');
  for (llvm::StringRef item : items) {
    item = item.trim();
    // "Used 8 registers" / "used 1 barriers"
    if (item.consume_front_insensitive("used "))
      item = item.trim();
    uint64_t count;
    llvm::StringRef what;
    if (!splitCount(item, count, what))
      continue;
    if (what == "registers")
      resources.registers = static_cast<unsigned>(count);
    else if (what == "barriers")
      resources.barriers = static_cast<unsigned>(count);
    else if (what == "bytes smem")
      resources.staticSmem = count;
    else if (what == "bytes cumulative stack size")
      resources.localBytes = std::max(resources.localBytes, count);
  }
}

/// Returns the text between the first pair of single quotes in `line`.
llvm::StringRef quoted(llvm::StringRef line) {
  size_t begin = line.find('\'');
  if (begin == llvm::StringRef::npos)
    return {};
  size_t end = line.find('\'', begin + 1);
  if (end == llvm::StringRef::npos)
    return {};
  return line.slice(begin + 1, end);
}

/// A numbered note, "(C7520) Potential ... in the function 'k'": its code,
/// its text without the function, and the function (empty if it names
/// none).
struct NumberedNote {
  llvm::StringRef code;
  llvm::StringRef text;
  llvm::StringRef function;
};

/// Splits `message` (a `ptxas info` line without its prefix) into a
/// numbered note; returns false if it is not one.
bool parseNumberedNote(llvm::StringRef message, NumberedNote &note) {
  if (!message.consume_front("("))
    return false;
  size_t close = message.find(')');
  if (close == llvm::StringRef::npos)
    return false;
  llvm::StringRef code = message.take_front(close);
  if (code.size() < 2 || code.front() != 'C' ||
      !llvm::all_of(code.drop_front(), llvm::isDigit))
    return false;
  note.code = code;
  note.text = message.drop_front(close + 1).trim();
  for (llvm::StringRef suffix : {" in the function '", " in function '"}) {
    size_t at = note.text.rfind(suffix);
    if (at == llvm::StringRef::npos || !note.text.ends_with("'"))
      continue;
    note.function = note.text.slice(at + suffix.size(), note.text.size() - 1);
    note.text = note.text.take_front(at);
    break;
  }
  return true;
}
} // namespace

llvm::StringMap<PtxasResources> tilec::parsePtxasReport(llvm::StringRef text) {
  llvm::StringMap<PtxasResources> entries;
  llvm::StringMap<FrameInfo> frames;
  std::string currentEntry;
  std::string framesFor;

  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef rawLine : lines) {
    llvm::StringRef line = rawLine.trim();
    llvm::StringRef message = line;
    bool isInfo = message.consume_front("ptxas info");
    if (isInfo) {
      message = message.ltrim();
      message.consume_front(":");
      message = message.trim();
    }
    if (isInfo && message.starts_with("Compiling entry function")) {
      currentEntry = quoted(message).str();
      if (!currentEntry.empty())
        entries.try_emplace(currentEntry);
      continue;
    }
    if (isInfo && message.consume_front("Function properties for ")) {
      framesFor = message.trim().str();
      continue;
    }
    NumberedNote note;
    if (isInfo && parseNumberedNote(message, note)) {
      std::string function =
          note.function.empty() ? currentEntry : note.function.str();
      if (!function.empty())
        entries[function].performanceWarnings.push_back(
            (note.code + ": " + note.text).str());
      continue;
    }
    if (isInfo && message.starts_with("Used ")) {
      if (!currentEntry.empty())
        parseUsedLine(message, entries[currentEntry]);
      continue;
    }
    if (!isInfo && !framesFor.empty() && line.contains("bytes stack frame")) {
      frames[framesFor] = parseFrameLine(line);
      framesFor.clear();
    }
  }

  for (auto &entry : entries) {
    auto frame = frames.find(entry.getKey());
    if (frame == frames.end())
      continue;
    PtxasResources &resources = entry.getValue();
    resources.spillStores = frame->getValue().spillStores;
    resources.spillLoads = frame->getValue().spillLoads;
    resources.localBytes =
        std::max(resources.localBytes, frame->getValue().stackFrame);
  }
  return entries;
}
