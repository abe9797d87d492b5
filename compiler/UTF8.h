//===- UTF8.h - UTF-8 validation --------------------------------*- C++ -*-===//
//
// Decoding of one UTF-8 sequence, used by the lexer to reject invalid input
// and by the diagnostic renderer to print source lines safely.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_UTF8_H
#define TILEC_COMPILER_UTF8_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tilec {

/// One decoded code point.
struct DecodedChar {
  /// The code point; meaningless when `Length` is 0.
  std::uint32_t CodePoint = 0;
  /// Bytes the sequence occupies; 0 when the bytes at the position are not a
  /// well-formed UTF-8 sequence (overlong forms, surrogates and code points
  /// above U+10FFFF are ill-formed).
  unsigned Length = 0;
};

/// Decodes the UTF-8 sequence starting at byte `Pos` of `Text`
/// (`Pos < Text.size()`).
DecodedChar decodeUTF8(std::string_view Text, std::size_t Pos);

} // namespace tilec

#endif // TILEC_COMPILER_UTF8_H
