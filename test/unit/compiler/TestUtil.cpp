//===- TestUtil.cpp - Helpers of the front-end unit tests -----------------===//

#include "TestUtil.h"

#include "compiler/Parser.h"

#include <fstream>
#include <sstream>

using namespace tilec;
using namespace tilec::test;

std::vector<std::string> FrontEndRun::errors() const {
  std::vector<std::string> Out;
  for (const Diagnostic &D : Diags->getDiagnostics())
    if (D.Sev == Severity::Error)
      Out.push_back(D.Message);
  return Out;
}

std::string FrontEndRun::rendered() const {
  std::string Out;
  for (const Diagnostic &D : Diags->getDiagnostics())
    Out += renderDiagnostic(Source.get(), "tilec", D);
  return Out;
}

bool FrontEndRun::hasError(const std::string &Text) const {
  for (const std::string &Message : errors())
    if (Message.find(Text) != std::string::npos)
      return true;
  return false;
}

FrontEndRun tilec::test::parse(const std::string &Text) {
  FrontEndRun Run;
  Run.Source = std::make_unique<SourceFile>("test.tile", Text);
  Run.Diags = std::make_unique<DiagnosticEngine>(Run.Source.get(), nullptr);
  Run.File = parseFile(*Run.Source, *Run.Diags);
  return Run;
}

FrontEndRun tilec::test::analyze(const std::string &Text,
                                 const SemaOptions &Options) {
  FrontEndRun Run = parse(Text);
  if (!Run.Diags->shouldStop())
    Run.Prog = tilec::analyze(*Run.File, Options, *Run.Diags);
  return Run;
}

std::string tilec::test::referenceProgram(const std::string &Name) {
  std::ifstream In(std::string(TILEC_SPECS_DIR) + "/" + Name + ".tile");
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}
