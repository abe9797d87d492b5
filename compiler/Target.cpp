//===- Target.cpp - GPU architectures tilec compiles for ------------------===//

#include "compiler/Target.h"

using namespace tilec;

namespace {

struct ArchInfo {
  Arch A;
  const char *Name;
  std::int64_t MaxSharedMemoryPerBlock;
};

constexpr ArchInfo Archs[] = {
    {Arch::SM80, "sm_80", 163 * 1024},   {Arch::SM86, "sm_86", 99 * 1024},
    {Arch::SM89, "sm_89", 99 * 1024},    {Arch::SM90, "sm_90", 227 * 1024},
    {Arch::SM90a, "sm_90a", 227 * 1024},
};

} // namespace

std::optional<Arch> tilec::parseArch(std::string_view Name) {
  for (const ArchInfo &Info : Archs)
    if (Name == Info.Name)
      return Info.A;
  return std::nullopt;
}

const char *tilec::getArchName(Arch A) {
  return Archs[static_cast<unsigned>(A)].Name;
}

const char *tilec::getArchList() {
  return "sm_80, sm_86, sm_89, sm_90, sm_90a";
}

std::int64_t tilec::getMaxSharedMemoryPerBlock(Arch A) {
  return Archs[static_cast<unsigned>(A)].MaxSharedMemoryPerBlock;
}
