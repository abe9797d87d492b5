//===- Suggestions.cpp - "Did you mean" suggestions -----------------------===//

#include "compiler/Suggestions.h"

#include <algorithm>
#include <tuple>

using namespace tilec;

namespace {

/// Returns the edit distance between `A` and `B`, counting the swap of two
/// adjacent characters as one edit (`wiht`, `with`), or `Limit + 1` if it
/// exceeds `Limit`.
unsigned editDistance(std::string_view A, std::string_view B, unsigned Limit) {
  if (A.size() > B.size() + Limit || B.size() > A.size() + Limit)
    return Limit + 1;
  // Rows I - 2, I - 1 and I of the distance matrix.
  std::vector<unsigned> Older(B.size() + 1), Prev(B.size() + 1),
      Row(B.size() + 1);
  for (unsigned J = 0; J <= B.size(); ++J)
    Row[J] = J;
  unsigned PrevMin = 0;
  for (unsigned I = 1; I <= A.size(); ++I) {
    Older.swap(Prev);
    Prev.swap(Row);
    Row[0] = I;
    unsigned RowMin = Row[0];
    for (unsigned J = 1; J <= B.size(); ++J) {
      Row[J] = std::min({Prev[J] + 1, Row[J - 1] + 1,
                         Prev[J - 1] + (A[I - 1] == B[J - 1] ? 0u : 1u)});
      if (I > 1 && J > 1 && A[I - 1] == B[J - 2] && A[I - 2] == B[J - 1])
        Row[J] = std::min(Row[J], Older[J - 2] + 1);
      RowMin = std::min(RowMin, Row[J]);
    }
    // A swap reaches back two rows.
    if (RowMin > Limit && PrevMin > Limit)
      return Limit + 1;
    PrevMin = RowMin;
  }
  return Row[B.size()];
}

} // namespace

std::string
tilec::closestName(std::string_view Name,
                   const std::vector<std::string_view> &Candidates) {
  if (Name.size() > 64)
    return {};
  auto Lower = [](std::string_view S) {
    std::string Out(S);
    for (char &C : Out)
      if (C >= 'A' && C <= 'Z')
        C = static_cast<char>(C - 'A' + 'a');
    return Out;
  };
  std::string LowerName = Lower(Name);
  unsigned Limit = std::max<unsigned>(1, Name.size() / 3);
  // Closest first; among equals, a case-only difference, then the
  // alphabetically first (so the choice does not depend on hash order).
  std::string Best;
  std::tuple<unsigned, bool, std::string_view> BestKey{Limit + 1, true, {}};
  for (std::string_view Candidate : Candidates) {
    if (Candidate == Name)
      continue;
    unsigned D = editDistance(Name, Candidate, Limit);
    if (D > Limit)
      continue;
    std::tuple<unsigned, bool, std::string_view> Key{
        D, Lower(Candidate) != LowerName, Candidate};
    if (Key < BestKey) {
      BestKey = Key;
      Best = std::string(Candidate);
    }
  }
  return Best;
}
