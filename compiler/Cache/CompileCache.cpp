//===- CompileCache.cpp - The content-addressed compile cache -------------===//

#include "compiler/Cache/CompileCache.h"

#include "compiler/Cache/CacheManifest.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tilec;

namespace {
/// The layout version of the cache's directory (CompileCache.h).
constexpr const char *LayoutDir = "v1";
/// How old a leftover under tmp/ must be to be removed: older than any
/// write of an entry in progress.
constexpr std::chrono::hours TmpLeftoverAge(1);

/// The marker of cache directories (https://bford.info/cachedir/).
constexpr const char *CacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by tilec.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n";

std::string joinPath(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  return std::string(Path);
}

/// Writes `Bytes` to the new file `Path` and flushes it to the disk.
std::error_code writeSyncedFile(const std::string &Path,
                                llvm::StringRef Bytes) {
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(
          Path, FD, llvm::sys::fs::CD_CreateNew))
    return EC;
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/false);
    OS << Bytes;
    OS.flush();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC && ::fsync(FD) != 0)
    EC = std::error_code(errno, std::generic_category());
  if (::close(FD) != 0 && !EC)
    EC = std::error_code(errno, std::generic_category());
  return EC;
}

/// Returns the lowercase hex SHA-256 of `Bytes`.
std::string hashBytes(llvm::StringRef Bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Bytes)),
                     /*LowerCase=*/true);
}
} // namespace

CompileCache::CompileCache(CacheConfig Config, WarningHandler Warn)
    : Config(std::move(Config)), Warn(std::move(Warn)) {
  for (const std::string &Warning : this->Config.Warnings)
    this->Warn(Warning);
  std::string Root = joinPath(this->Config.Directory, LayoutDir);
  EntriesDir = joinPath(Root, "entries");
  TmpDir = joinPath(Root, "tmp");
  ToolsDir = joinPath(Root, "tools");
}

std::string CompileCache::getEntryPath(const std::string &Key) const {
  return joinPath(EntriesDir, Key);
}

void CompileCache::disable(const std::string &Reason) {
  Config.Enabled = false;
  if (Disabled)
    return;
  Disabled = true;
  Warn("not using the compile cache in '" + Config.Directory + "': " + Reason +
       "; compiling without it");
}

std::optional<CacheEntry> CompileCache::readEntry(const std::string &Dir,
                                                  const std::string &Key,
                                                  std::string &Problem) {
  std::string ManifestPath = joinPath(Dir, CacheManifestName);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(ManifestPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!Text) {
    Problem = std::string("cannot read ") + CacheManifestName + ": " +
              Text.getError().message();
    return std::nullopt;
  }
  CacheManifest Manifest;
  Problem = parseCacheManifest((*Text)->getBuffer().str(), Manifest);
  if (!Problem.empty())
    return std::nullopt;
  if (Manifest.Key != Key) {
    Problem = "the manifest is the one of entry " + Manifest.Key;
    return std::nullopt;
  }
  CacheEntry Entry;
  for (const CacheManifestFile &File : Manifest.Files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Bytes =
        llvm::MemoryBuffer::getFile(joinPath(Dir, File.Stored),
                                    /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!Bytes) {
      Problem =
          "cannot read '" + File.Stored + "': " + Bytes.getError().message();
      return std::nullopt;
    }
    llvm::StringRef Contents = (*Bytes)->getBuffer();
    if (Contents.size() != File.Size) {
      Problem = "'" + File.Stored + "' has " + std::to_string(Contents.size()) +
                " bytes, the manifest says " + std::to_string(File.Size);
      return std::nullopt;
    }
    if (hashBytes(Contents) != File.Sha256) {
      Problem =
          "the SHA-256 of '" + File.Stored + "' is not the one in the manifest";
      return std::nullopt;
    }
    Entry.Files.push_back({File.Name, Contents.str()});
  }
  Entry.Messages = std::move(Manifest.Messages);
  return Entry;
}

std::optional<CacheEntry> CompileCache::lookup(const std::string &Key) {
  if (!Config.Enabled)
    return std::nullopt;
  std::string Dir = getEntryPath(Key);
  std::string Problem;
  if (std::optional<CacheEntry> Entry = readEntry(Dir, Key, Problem)) {
    // The least recently used entries are evicted first. A cache that
    // cannot be written is still read.
    std::string ManifestPath = joinPath(Dir, CacheManifestName);
    ::utimensat(AT_FDCWD, ManifestPath.c_str(), nullptr, 0);
    return Entry;
  }
  // No entry (or one another tilec just removed): a plain miss.
  if (!llvm::sys::fs::is_directory(Dir))
    return std::nullopt;
  Warn("compile cache entry '" + Dir + "' is corrupt (" + Problem +
       "); removing it and compiling again");
  removeEntry(Dir);
  return std::nullopt;
}

std::optional<std::string>
CompileCache::getToolVersion(const std::string &Path,
                             const std::string &Stamp) {
  if (!Config.Enabled || Stamp.empty())
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(joinPath(ToolsDir, hashBytes(Path)),
                                  /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!Text)
    return std::nullopt;
  llvm::StringRef Buffer = (*Text)->getBuffer();
  nlohmann::json Record = nlohmann::json::parse(
      Buffer.begin(), Buffer.end(), /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (!Record.is_object())
    return std::nullopt;
  auto Field = [&](const char *Name) -> std::optional<std::string> {
    auto It = Record.find(Name);
    if (It == Record.end() || !It->is_string())
      return std::nullopt;
    return It->get<std::string>();
  };
  if (Field("path") != Path || Field("stamp") != Stamp)
    return std::nullopt;
  return Field("version");
}

void CompileCache::rememberToolVersion(const std::string &Path,
                                       const std::string &Stamp,
                                       const std::string &Version) {
  if (!Config.Enabled || Stamp.empty() || !isValidManifestString(Path) ||
      !isValidManifestString(Version) || !createDirectories())
    return;
  nlohmann::json Record = {
      {"path", Path}, {"stamp", Stamp}, {"version", Version}};
  // Written whole under a temporary name, then renamed: a reader sees the
  // old record or the new one. A failure only costs running the tool.
  llvm::SmallString<256> Temporary;
  int FD;
  if (llvm::sys::fs::createUniqueFile(joinPath(TmpDir, "tool-%%%%%%%%"), FD,
                                      Temporary))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Record.dump() << "\n";
  }
  if (llvm::sys::fs::rename(Temporary, joinPath(ToolsDir, hashBytes(Path))))
    llvm::sys::fs::remove(Temporary);
}

bool CompileCache::createDirectories() {
  if (Created)
    return true;
  for (const std::string &Dir : {EntriesDir, TmpDir, ToolsDir})
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
      disable("cannot create '" + Dir + "': " + EC.message());
      return false;
    }
  std::string Tag = joinPath(Config.Directory, "CACHEDIR.TAG");
  if (!llvm::sys::fs::exists(Tag)) {
    // Written once, by whichever tilec gets there first; a failure shows
    // when the entry is written.
    llvm::SmallString<256> Temporary;
    int FD;
    if (!llvm::sys::fs::createUniqueFile(Tag + ".tmp-%%%%%%", FD, Temporary)) {
      {
        llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
        OS << CacheDirTag;
      }
      if (llvm::sys::fs::rename(Temporary, Tag))
        llvm::sys::fs::remove(Temporary);
    }
  }
  Created = true;
  return true;
}

bool CompileCache::removeEntry(const std::string &Dir) {
  // Renamed away first, so that no tilec reads a half-removed entry.
  llvm::sys::fs::create_directories(TmpDir);
  llvm::SmallString<256> Removed;
  llvm::sys::fs::createUniquePath(joinPath(TmpDir, "removed-%%%%%%%%%%"),
                                  Removed, /*MakeAbsolute=*/false);
  if (llvm::sys::fs::rename(Dir, Removed)) {
    if (!llvm::sys::fs::exists(Dir))
      return false;
    llvm::sys::fs::remove_directories(Dir, /*IgnoreErrors=*/true);
    return true;
  }
  llvm::sys::fs::remove_directories(Removed, /*IgnoreErrors=*/true);
  return true;
}

void CompileCache::store(const std::string &Key,
                         const nlohmann::ordered_json &Inputs,
                         const CacheEntry &Entry) {
  if (!Config.Enabled)
    return;
  // A name that is not UTF-8 would not read back from the manifest.
  for (const CachedFile &File : Entry.Files)
    if (!isValidManifestString(File.Name))
      return;
  for (const std::string &Message : Entry.Messages)
    if (!isValidManifestString(Message))
      return;
  if (!createDirectories())
    return;

  llvm::SmallString<256> Staging;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(
          joinPath(TmpDir, Key), Staging)) {
    disable("cannot create a directory in '" + TmpDir + "': " + EC.message());
    return;
  }
  CacheManifest Manifest;
  Manifest.Key = Key;
  Manifest.Messages = Entry.Messages;
  Manifest.Inputs = Inputs;
  auto Fail = [&](const std::string &Path, std::error_code EC) {
    llvm::sys::fs::remove_directories(Staging, /*IgnoreErrors=*/true);
    disable("cannot write '" + Path + "': " + EC.message());
  };
  for (std::size_t I = 0; I != Entry.Files.size(); ++I) {
    const CachedFile &File = Entry.Files[I];
    std::string Stored = getStoredFileName(I, File.Name);
    std::string Path = joinPath(Staging, Stored);
    if (std::error_code EC = writeSyncedFile(Path, File.Contents))
      return Fail(Path, EC);
    Manifest.Files.push_back(
        {File.Name, Stored, File.Contents.size(), hashBytes(File.Contents)});
  }
  std::string ManifestPath = joinPath(Staging, CacheManifestName);
  if (std::error_code EC =
          writeSyncedFile(ManifestPath, printCacheManifest(Manifest)))
    return Fail(ManifestPath, EC);

  std::string Dir = getEntryPath(Key);
  if (std::error_code EC = llvm::sys::fs::rename(Staging, Dir)) {
    llvm::sys::fs::remove_directories(Staging, /*IgnoreErrors=*/true);
    // Another tilec stored the same entry first.
    if (EC == std::errc::directory_not_empty || EC == std::errc::file_exists)
      return;
    disable("cannot write '" + Dir + "': " + EC.message());
    return;
  }
  evict(Key);
}

void CompileCache::evict(const std::string &Keep) {
  struct Item {
    std::string Dir;
    std::uint64_t Size = 0;
    llvm::sys::TimePoint<> Used;
    bool Kept = false;
  };
  std::vector<Item> Items;
  std::uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(EntriesDir, EC), End;
       It != End && !EC; It.increment(EC)) {
    Item Entry;
    Entry.Dir = It->path();
    Entry.Kept = llvm::sys::path::filename(Entry.Dir) == Keep;
    std::error_code FileEC;
    for (llvm::sys::fs::directory_iterator File(Entry.Dir, FileEC);
         File != End && !FileEC; File.increment(FileEC)) {
      llvm::ErrorOr<llvm::sys::fs::basic_file_status> Status = File->status();
      if (!Status)
        continue;
      Entry.Size += Status->getSize();
      if (llvm::sys::path::filename(File->path()) == CacheManifestName)
        Entry.Used = Status->getLastModificationTime();
    }
    Total += Entry.Size;
    Items.push_back(std::move(Entry));
  }
  if (Total > Config.MaxSize) {
    // Oldest first; the entry just written last of all.
    std::sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) {
      if (A.Kept != B.Kept)
        return B.Kept;
      if (A.Used != B.Used)
        return A.Used < B.Used;
      return A.Dir < B.Dir;
    });
    for (const Item &Entry : Items) {
      if (Total <= Config.MaxSize)
        break;
      removeEntry(Entry.Dir);
      Total -= Entry.Size;
    }
  }
  // What a tilec that was killed while writing or removing left behind.
  auto Now = std::chrono::system_clock::now();
  for (llvm::sys::fs::directory_iterator It(TmpDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> Status = It->status();
    if (!Status || Now - Status->getLastModificationTime() <= TmpLeftoverAge)
      continue;
    if (Status->type() == llvm::sys::fs::file_type::directory_file)
      llvm::sys::fs::remove_directories(It->path(), /*IgnoreErrors=*/true);
    else
      llvm::sys::fs::remove(It->path());
  }
}
