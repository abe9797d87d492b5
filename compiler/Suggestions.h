//===- Suggestions.h - "Did you mean" suggestions ---------------*- C++ -*-===//
//
// The closest name to a misspelled one, for the "did you mean" notes of the
// parser (keywords) and of semantic analysis (names, builtins, -D).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SUGGESTIONS_H
#define TILEC_COMPILER_SUGGESTIONS_H

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Returns the closest of `Candidates` to `Name` (by edit distance), or
/// empty if none is close enough to suggest.
std::string closestName(std::string_view Name,
                        const std::vector<std::string_view> &Candidates);

} // namespace tilec

#endif // TILEC_COMPILER_SUGGESTIONS_H
