//===- UTF8.cpp - UTF-8 validation ----------------------------------------===//

#include "compiler/UTF8.h"

using namespace tilec;

DecodedChar tilec::decodeUTF8(std::string_view Text, std::size_t Pos) {
  auto Byte = [&](std::size_t I) {
    return static_cast<unsigned char>(Text[I]);
  };
  unsigned char Lead = Byte(Pos);
  if (Lead < 0x80)
    return {Lead, 1};
  unsigned Length;
  std::uint32_t CodePoint;
  std::uint32_t Min;
  if ((Lead & 0xE0) == 0xC0) {
    Length = 2;
    CodePoint = Lead & 0x1F;
    Min = 0x80;
  } else if ((Lead & 0xF0) == 0xE0) {
    Length = 3;
    CodePoint = Lead & 0x0F;
    Min = 0x800;
  } else if ((Lead & 0xF8) == 0xF0) {
    Length = 4;
    CodePoint = Lead & 0x07;
    Min = 0x10000;
  } else {
    return {};
  }
  if (Text.size() - Pos < Length)
    return {};
  for (unsigned I = 1; I != Length; ++I) {
    unsigned char Next = Byte(Pos + I);
    if ((Next & 0xC0) != 0x80)
      return {};
    CodePoint = (CodePoint << 6) | (Next & 0x3F);
  }
  if (CodePoint < Min || CodePoint > 0x10FFFF ||
      (CodePoint >= 0xD800 && CodePoint <= 0xDFFF))
    return {};
  return {CodePoint, Length};
}
