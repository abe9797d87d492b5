//===- BuildIdentity.cpp - What identifies a tilec build and a file -------===//

#include "compiler/Cache/BuildIdentity.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>

#include <elf.h>
#include <link.h>

using namespace tilec;

namespace {
/// Returns the GNU build ID of the loaded object `Info` in hex, or "".
std::string findBuildId(const dl_phdr_info &Info) {
  for (unsigned I = 0; I != Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Header = Info.dlpi_phdr[I];
    if (Header.p_type != PT_NOTE)
      continue;
    const char *Note =
        reinterpret_cast<const char *>(Info.dlpi_addr + Header.p_vaddr);
    const char *End = Note + Header.p_memsz;
    auto Align = [](std::size_t Size) { return (Size + 3) & ~std::size_t(3); };
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const auto *Entry = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const char *Name = Note + sizeof(ElfW(Nhdr));
      const char *Desc = Name + Align(Entry->n_namesz);
      if (Desc + Entry->n_descsz > End)
        break;
      if (Entry->n_type == NT_GNU_BUILD_ID && Entry->n_namesz == 4 &&
          llvm::StringRef(Name, 3) == "GNU")
        return llvm::toHex(llvm::StringRef(Desc, Entry->n_descsz),
                           /*LowerCase=*/true);
      Note = Desc + Align(Entry->n_descsz);
    }
  }
  return "";
}

int collectBuildId(dl_phdr_info *Info, size_t, void *Data) {
  auto &Identity = *static_cast<std::string *>(Data);
  // The first object is the executable, whose name is empty.
  bool Executable = Identity.empty();
  llvm::StringRef Path = Info->dlpi_name ? Info->dlpi_name : "";
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  if (!Executable && !Name.starts_with("libLLVM") &&
      !Name.starts_with("libMLIR"))
    return 0;
  std::string Id = findBuildId(*Info);
  if (Id.empty())
    Id = Executable ? "/proc/self/exe@" + getFileStamp("/proc/self/exe")
                    : Path.str() + "@" + getFileStamp(Path.str());
  Identity += (Executable ? std::string("exe") : Name.str()) + ":" + Id + ";";
  return 0;
}
} // namespace

std::string tilec::getBuildIdentity() {
  std::string Identity;
  dl_iterate_phdr(collectBuildId, &Identity);
  return Identity;
}

std::string tilec::getFileStamp(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return "";
  auto Modified = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      Status.getLastModificationTime().time_since_epoch())
                      .count();
  llvm::sys::fs::UniqueID Id = Status.getUniqueID();
  return std::to_string(Status.getSize()) + ":" + std::to_string(Modified) +
         ":" + std::to_string(Id.getDevice()) + "." +
         std::to_string(Id.getFile());
}
