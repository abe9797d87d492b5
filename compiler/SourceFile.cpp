//===- SourceFile.cpp - A .tile source buffer and its locations -----------===//

#include "compiler/SourceFile.h"

#include <algorithm>

using namespace tilec;

SourceFile::SourceFile(std::string Name, std::string Contents)
    : Name(std::move(Name)), Contents(std::move(Contents)) {
  LineStarts.push_back(0);
  for (std::size_t I = 0, E = this->Contents.size(); I != E; ++I)
    if (this->Contents[I] == '\n')
      LineStarts.push_back(static_cast<std::uint32_t>(I + 1));
}

SourceLoc SourceFile::getLoc(std::uint32_t Offset) const {
  Offset = std::min<std::uint32_t>(Offset,
                                   static_cast<std::uint32_t>(Contents.size()));
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  auto Line = static_cast<std::uint32_t>(It - LineStarts.begin());
  SourceLoc Loc;
  Loc.Offset = Offset;
  Loc.Line = Line;
  Loc.Col = Offset - LineStarts[Line - 1] + 1;
  return Loc;
}

std::string_view SourceFile::getLineText(std::uint32_t Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return {};
  std::size_t Begin = LineStarts[Line - 1];
  std::size_t End =
      Line < LineStarts.size() ? LineStarts[Line] - 1 : Contents.size();
  std::string_view Text(Contents.data() + Begin, End - Begin);
  if (!Text.empty() && Text.back() == '\r')
    Text.remove_suffix(1);
  return Text;
}
