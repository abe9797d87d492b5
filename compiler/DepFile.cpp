//===- DepFile.cpp - Make-style dependency files --------------------------===//

#include "compiler/DepFile.h"

using namespace tilec;

std::string tilec::escapeMakePath(std::string_view Path) {
  std::string Escaped;
  for (std::size_t I = 0; I != Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ' || C == '#') {
      // Make reads 2N backslashes before a space as N backslashes and a
      // separator: double those in front of it, then escape it.
      for (std::size_t J = I; J != 0 && Path[J - 1] == '\\'; --J)
        Escaped += '\\';
      Escaped += '\\';
    } else if (C == '$') {
      Escaped += '$';
    }
    Escaped += C;
  }
  return Escaped;
}

std::string
tilec::formatMakeRule(const std::vector<std::string> &Targets,
                      const std::vector<std::string> &Prerequisites) {
  std::string Rule;
  for (const std::string &Target : Targets)
    Rule += (Rule.empty() ? "" : " ") + escapeMakePath(Target);
  Rule += ':';
  for (const std::string &Prerequisite : Prerequisites)
    Rule += ' ' + escapeMakePath(Prerequisite);
  return Rule + '\n';
}
