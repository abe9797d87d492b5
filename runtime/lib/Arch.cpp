//===- Arch.cpp - Target architectures and compatibility --------*- C++ -*-===//

#include "Arch.h"

#include <cctype>

namespace tilert::detail {

const char *binaryKindName(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::Cubin:
    return "cubin";
  case BinaryKind::Ptx:
    return "ptx";
  case BinaryKind::Fatbin:
    return "fatbin";
  }
  return "unknown";
}

bool parseBinaryKind(std::string_view name, BinaryKind &kind) {
  for (BinaryKind Candidate :
       {BinaryKind::Cubin, BinaryKind::Ptx, BinaryKind::Fatbin}) {
    if (name == binaryKindName(Candidate)) {
      kind = Candidate;
      return true;
    }
  }
  return false;
}

bool parseArch(std::string_view name, Arch &arch) {
  constexpr std::string_view Prefix = "sm_";
  if (name.substr(0, Prefix.size()) != Prefix)
    return false;
  std::string_view Rest = name.substr(Prefix.size());
  bool Specific = !Rest.empty() && Rest.back() == 'a';
  if (Specific)
    Rest.remove_suffix(1);
  if (Rest.size() < 2 || Rest.size() > 3 || Rest.front() == '0')
    return false;
  int Number = 0;
  for (char C : Rest) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
    Number = Number * 10 + (C - '0');
  }
  arch = Arch{std::string(name), Number / 10, Number % 10, Specific};
  return true;
}

bool sassRunsOn(const Arch &arch, int ccMajor, int ccMinor) {
  if (arch.Specific)
    return ccMajor == arch.Major && ccMinor == arch.Minor;
  return ccMajor == arch.Major && ccMinor >= arch.Minor;
}

bool ptxRunsOn(const Arch &arch, int ccMajor, int ccMinor) {
  if (arch.Specific)
    return ccMajor == arch.Major && ccMinor == arch.Minor;
  return ccMajor > arch.Major ||
         (ccMajor == arch.Major && ccMinor >= arch.Minor);
}

namespace {

std::string sassRule(const Arch &arch) {
  if (arch.Specific)
    return strCat(arch.Name, " SASS runs only on compute capability ",
                  arch.Major, ".", arch.Minor);
  return strCat(arch.Name, " SASS runs only on compute capability ", arch.Major,
                ".", arch.Minor, " to ", arch.Major, ".9");
}

std::string ptxRule(const Arch &arch) {
  if (arch.Specific)
    return strCat(arch.Name,
                  " PTX can be JIT-compiled only for compute "
                  "capability ",
                  arch.Major, ".", arch.Minor);
  return strCat(arch.Name, " PTX needs compute capability ", arch.Major, ".",
                arch.Minor, " or newer");
}

} // namespace

Status selectBinaries(const Arch &arch, const std::vector<BinaryKind> &kinds,
                      int ccMajor, int ccMinor, const std::string &device,
                      std::vector<size_t> &order) {
  order.clear();
  for (BinaryKind Wanted :
       {BinaryKind::Cubin, BinaryKind::Fatbin, BinaryKind::Ptx}) {
    for (size_t I = 0; I < kinds.size(); ++I) {
      if (kinds[I] != Wanted)
        continue;
      bool Fits =
          Wanted == BinaryKind::Fatbin ||
          (Wanted == BinaryKind::Cubin && sassRunsOn(arch, ccMajor, ccMinor)) ||
          (Wanted == BinaryKind::Ptx && ptxRunsOn(arch, ccMajor, ccMinor));
      if (Fits)
        order.push_back(I);
    }
  }
  if (!order.empty())
    return Status::success();
  std::string Reasons;
  bool HasCubin = false, HasPtx = false;
  for (BinaryKind Kind : kinds) {
    HasCubin |= Kind == BinaryKind::Cubin;
    HasPtx |= Kind == BinaryKind::Ptx;
  }
  if (HasCubin)
    Reasons += sassRule(arch);
  if (HasPtx)
    Reasons += strCat(Reasons.empty() ? "" : "; ", ptxRule(arch));
  if (!HasPtx)
    Reasons += strCat(Reasons.empty() ? "" : "; ", "no PTX is shipped to JIT");
  return makeError(TILERT_ERROR_ARCH_MISMATCH, "kernel built for ", arch.Name,
                   " cannot run on ", device, " (compute capability ", ccMajor,
                   ".", ccMinor, "): ", Reasons);
}

} // namespace tilert::detail
