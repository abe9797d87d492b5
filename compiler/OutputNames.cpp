//===- OutputNames.cpp - Names of the files tilec writes ------------------===//

#include "compiler/OutputNames.h"

#include "compiler/AST.h"

using namespace tilec;

std::vector<ParamSetting> tilec::getChangedParams(const KernelInfo &Kernel) {
  std::vector<ParamSetting> Settings;
  const std::vector<ast::ConstParamDecl> &Decls = Kernel.Decl->ConstParams;
  for (std::size_t I = 0; I != Kernel.ConstParams.size(); ++I) {
    const Symbol *Param = Kernel.ConstParams[I];
    if (I >= Decls.size() || !Param->Const || !Decls[I].Default->Const)
      continue;
    std::string Value = Param->Const->toString();
    if (Value != Decls[I].Default->Const->toString())
      Settings.push_back({Param->Name, Value});
  }
  return Settings;
}

std::string tilec::getVariantStem(std::string_view Kernel,
                                  const std::vector<ParamSetting> &Settings) {
  std::string Stem(Kernel);
  for (const ParamSetting &Setting : Settings) {
    Stem += "-" + Setting.Name + "_";
    for (char C : Setting.Value) {
      bool Safe = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
                  (C >= '0' && C <= '9') || C == '.' || C == '+' || C == '-';
      Stem += Safe ? C : '_';
    }
  }
  return Stem;
}

OutputKind tilec::classifyOutput(std::string_view Path, bool IsDirectory) {
  if (Path == "-")
    return OutputKind::Stdout;
  if (IsDirectory || Path.empty() || Path.back() == '/')
    return OutputKind::Directory;
  std::size_t Dot = Path.rfind('.');
  std::size_t Slash = Path.rfind('/');
  if (Dot == std::string_view::npos ||
      (Slash != std::string_view::npos && Dot < Slash))
    return OutputKind::Directory;
  std::string_view Extension = Path.substr(Dot + 1);
  for (std::string_view Known :
       {"ast", "mlir", "ll", "ptx", "cubin", "fatbin", "json"})
    if (Extension == Known)
      return OutputKind::File;
  return OutputKind::Directory;
}
