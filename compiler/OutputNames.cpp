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

namespace {
/// Appends `Value` to `Out`, a character other than a letter, a digit, `.`,
/// `+` and `-` as `_`.
void appendSafe(std::string &Out, std::string_view Value) {
  for (char C : Value) {
    bool Safe = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
                (C >= '0' && C <= '9') || C == '.' || C == '+' || C == '-';
    Out += Safe ? C : '_';
  }
}
} // namespace

std::vector<ParamSetting> tilec::getParamValues(const KernelInfo &Kernel) {
  std::vector<ParamSetting> Values;
  for (const Symbol *Param : Kernel.ConstParams)
    if (Param->Const)
      Values.push_back({Param->Name, Param->Const->toString()});
  return Values;
}

std::string tilec::getVariantStem(std::string_view Kernel,
                                  const std::vector<ParamSetting> &Settings) {
  std::string Stem(Kernel);
  for (const ParamSetting &Setting : Settings) {
    Stem += "-" + Setting.Name + "_";
    appendSafe(Stem, Setting.Value);
  }
  return Stem;
}

std::string tilec::expandOutputName(std::string_view Template,
                                    std::string_view Kernel,
                                    std::string_view Variant,
                                    const std::vector<ParamSetting> &Params,
                                    std::string &Error) {
  std::string Prefix = "--output-name '" + std::string(Template) + "': ";
  std::string Stem;
  for (std::size_t I = 0; I < Template.size(); ++I) {
    char C = Template[I];
    if (C == '/') {
      Error = Prefix + "a file name cannot contain '/'; name the directory "
                       "with -o";
      return {};
    }
    if (C != '{') {
      Stem += C;
      continue;
    }
    std::size_t Close = Template.find('}', I);
    if (Close == std::string_view::npos) {
      Error = Prefix + "'{' without its '}'";
      return {};
    }
    std::string_view Name = Template.substr(I + 1, Close - I - 1);
    I = Close;
    if (Name == "kernel") {
      Stem += Kernel;
      continue;
    }
    if (Name == "variant") {
      Stem += Variant;
      continue;
    }
    bool Found = false;
    for (const ParamSetting &Param : Params)
      if (Param.Name == Name) {
        appendSafe(Stem, Param.Value);
        Found = true;
      }
    if (!Found) {
      std::string Known = "{kernel}, {variant}";
      for (const ParamSetting &Param : Params)
        Known += ", {" + Param.Name + "}";
      Error = Prefix + "kernel '" + std::string(Kernel) +
              "' has no compile-time parameter '" + std::string(Name) +
              "' (placeholders: " + Known + ")";
      return {};
    }
  }
  if (Stem.empty() || Stem == "." || Stem == "..")
    Error = Prefix + "the file name would be '" + Stem + "'";
  return Error.empty() ? Stem : std::string();
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
