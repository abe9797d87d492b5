//===- SourceFile.h - A .tile source buffer and its locations ---*- C++ -*-===//
//
// A source file held in memory, with the line table that maps byte offsets to
// 1-based line and column numbers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SOURCEFILE_H
#define TILEC_COMPILER_SOURCEFILE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A position in a source file. Lines and columns are 1-based; columns count
/// bytes, as clang's and MLIR's do. A default-constructed location is invalid
/// and stands for "no location".
struct SourceLoc {
  /// Byte offset from the start of the file.
  std::uint32_t Offset = 0;
  /// 1-based line, 0 when the location is invalid.
  std::uint32_t Line = 0;
  /// 1-based byte column within the line.
  std::uint32_t Col = 0;

  /// Returns true if this location points into a file.
  bool isValid() const { return Line != 0; }
};

/// The contents of one source file and its line table.
class SourceFile {
public:
  /// Takes ownership of `Contents`; `Name` is the path as the user gave it.
  SourceFile(std::string Name, std::string Contents);

  /// Returns the file name used in diagnostics and MLIR locations.
  const std::string &getName() const { return Name; }
  /// Returns the whole file.
  std::string_view getContents() const { return Contents; }
  /// Returns the location of byte `Offset` (which may be the end of file).
  SourceLoc getLoc(std::uint32_t Offset) const;
  /// Returns the text of 1-based line `Line` without its line terminator.
  std::string_view getLineText(std::uint32_t Line) const;

private:
  std::string Name;
  std::string Contents;
  /// Byte offset of the first character of each line.
  std::vector<std::uint32_t> LineStarts;
};

} // namespace tilec

#endif // TILEC_COMPILER_SOURCEFILE_H
