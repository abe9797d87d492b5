//===- KernelSpec.cpp - A kernel of a .tile file, as a tuner sees it ------===//

#include "compiler/Tune/KernelSpec.h"

#include "compiler/AST.h"
#include "compiler/OutputNames.h"
#include "compiler/Parser.h"

using namespace tilec;

namespace {

/// Returns the first line of a rendered diagnostic.
std::string firstLine(const std::string &Rendered) {
  return Rendered.substr(0, Rendered.find('\n'));
}

/// Returns the launch signature of `Info` (CandidateCheck::Signature).
std::string describeSignature(const KernelInfo &Info) {
  std::string Text;
  for (const Symbol *Tensor : Info.Tensors)
    Text += (Text.empty() ? "" : ", ") + Tensor->Name + ": " +
            getSpelling(Tensor->Buffer.Elem) + Tensor->Buffer.describeShape();
  std::string Scalars;
  for (const Symbol *Scalar : Info.Scalars)
    Scalars += (Scalars.empty() ? "" : ", ") + Scalar->Name + ": " +
               Scalar->Ty.describe();
  return Scalars.empty() ? Text : Text + "; " + Scalars;
}

} // namespace

std::unique_ptr<KernelSpec> KernelSpec::load(std::unique_ptr<SourceFile> Source,
                                             const std::string &Kernel,
                                             const DiagnosticSink &Sink,
                                             std::string &SelectionError) {
  DiagnosticEngine Diags(Source.get(), Sink);
  std::unique_ptr<ast::File> File = parseFile(*Source, Diags);
  if (Diags.hasErrors())
    return nullptr;
  std::unique_ptr<Program> Prog = analyze(*File, SemaOptions(), Diags);
  if (Diags.hasErrors())
    return nullptr;
  std::string Names;
  const KernelInfo *Selected = nullptr;
  for (const KernelInfo &Info : Prog->Kernels) {
    Names += (Names.empty() ? "'" : ", '") + Info.Decl->Name.Name + "'";
    if (Kernel.empty() || Info.Decl->Name.Name == Kernel)
      Selected = &Info;
  }
  const std::string &Path = Source->getName();
  if (Prog->Kernels.empty())
    SelectionError = "'" + Path + "' defines no kernel";
  else if (Kernel.empty() && Prog->Kernels.size() > 1)
    SelectionError = "'" + Path + "' defines several kernels (" + Names +
                     "): name one with 'kernel:'";
  else if (!Selected)
    SelectionError = "'" + Path + "' defines no kernel named '" + Kernel +
                     "' (it defines " + Names + ")";
  if (!SelectionError.empty())
    return nullptr;
  std::unique_ptr<KernelSpec> Spec(
      new KernelSpec(std::move(Source), Selected->Decl->Name.Name));
  for (const Symbol *Param : Selected->ConstParams)
    Spec->Params.push_back({Param->Name, *Param->Const});
  for (const Symbol *Dim : Selected->Dims)
    Spec->Dims.push_back(Dim->Name);
  return Spec;
}

CandidateCheck KernelSpec::check(const std::vector<Define> &Defines,
                                 const std::vector<Arch> &Archs) const {
  CandidateCheck Result;
  std::string FirstError;
  DiagnosticEngine Diags(Source.get(), [&](const std::string &Rendered) {
    if (FirstError.empty())
      FirstError = firstLine(Rendered);
  });
  SemaOptions Options;
  Options.SelectedKernels.push_back(Name);
  Options.Defines = Defines;
  std::unique_ptr<ast::File> File = parseFile(*Source, Diags);
  std::unique_ptr<Program> Prog = analyze(*File, Options, Diags);
  if (Diags.hasErrors()) {
    Result.Error = FirstError;
    return Result;
  }
  for (const KernelInfo &Info : Prog->Kernels) {
    if (!Info.Selected)
      continue;
    Result.Stem = getVariantStem(Name, getChangedParams(Info));
    Result.Signature = describeSignature(Info);
    for (Arch Target : Archs) {
      std::string Problem;
      DiagnosticEngine SmemDiags(Source.get(), [&](const std::string &Text) {
        if (Problem.empty())
          Problem = firstLine(Text);
      });
      checkSharedMemoryLimit(Info, Target, SmemDiags);
      Result.SharedMemory.push_back(Problem);
    }
  }
  return Result;
}
