//===- CompileCache.h - The content-addressed compile cache -----*- C++ -*-===//
//
// Keeps what compiling a kernel produced under the key of everything that
// determined it (CacheKey.h), so that compiling it again costs reading the
// files back. The cache is a directory (CacheConfig.h) laid out as
//
//   <dir>/CACHEDIR.TAG           tells backup tools to skip the directory
//   <dir>/v1/entries/<key>/      one entry: the files and manifest.json
//   <dir>/v1/tmp/                entries being written, and removed ones
//   <dir>/v1/tools/<hash>        a CUDA tool's version, by path and stamp
//
// An entry is written into a fresh directory under tmp/ (every file
// fsynced, the manifest last) and renamed to entries/<key> in one step, so
// another tilec sees either the whole entry or none; when two write the
// same key, the first rename wins and the other's copy is dropped. Reading
// an entry checks every file's size and SHA-256 against the manifest: a
// corrupt entry is reported, removed (renamed away, then deleted) and
// compiled again. A hit sets the manifest's modification time; when the
// entries take more than the size bound, the least recently used are
// removed.
//
// The cache never fails a compilation: when its directory cannot be
// created or written, it warns once, naming the directory and the reason,
// and the compilation goes on without it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_COMPILECACHE_H
#define TILEC_COMPILER_CACHE_COMPILECACHE_H

#include "compiler/Cache/CacheConfig.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One file of a compilation's output.
struct CachedFile {
  /// Its name, relative to the output directory.
  std::string Name;
  /// Its bytes.
  std::string Contents;
};

/// What a compilation produced and printed.
struct CacheEntry {
  /// The files, in the order the compilation produced them.
  std::vector<CachedFile> Files;
  /// The lines it printed to standard error (--stats), without newlines.
  std::vector<std::string> Messages;
};

/// A compile cache, for the compilations of one tilec run.
class CompileCache {
public:
  /// Receives each warning's message.
  using WarningHandler = std::function<void(const std::string &)>;

  /// Opens the cache `Config` describes; nothing is created until the
  /// first store. Warnings go to `Warn`.
  CompileCache(CacheConfig Config, WarningHandler Warn);

  /// Returns true while the cache is used.
  bool isEnabled() const { return Config.Enabled; }

  /// Returns the entry of `Key`, if there is an intact one, and marks it as
  /// used. A corrupt entry is reported, removed and treated as missing.
  std::optional<CacheEntry> lookup(const std::string &Key);

  /// Stores `Entry` under `Key`, with `Inputs` (what the key was computed
  /// from) in the manifest, then evicts the least recently used entries
  /// beyond the size bound. A failure to write is a warning (once) that
  /// stops the use of the cache.
  void store(const std::string &Key, const nlohmann::ordered_json &Inputs,
             const CacheEntry &Entry);

  /// Returns the directory of the entry of `Key`.
  std::string getEntryPath(const std::string &Key) const;

  /// Returns the `--version` output remembered for the tool at `Path`
  /// when its file stamp (getFileStamp) was `Stamp`, if any: what keys
  /// need of ptxas and fatbinary, without running them on every hit.
  std::optional<std::string> getToolVersion(const std::string &Path,
                                            const std::string &Stamp);

  /// Remembers `Version` for the tool at `Path` with file stamp `Stamp`.
  void rememberToolVersion(const std::string &Path, const std::string &Stamp,
                           const std::string &Version);

private:
  /// Warns that the cache is not used, because `Reason`, and stops using
  /// it. Only the first such warning is printed.
  void disable(const std::string &Reason);
  /// Reads the entry in `Dir`; sets `Problem` if it is corrupt.
  std::optional<CacheEntry> readEntry(const std::string &Dir,
                                      const std::string &Key,
                                      std::string &Problem);
  /// Creates the cache's directories; false (and disabled) on failure.
  bool createDirectories();
  /// Removes the entry directory `Dir`; false if it was already gone.
  bool removeEntry(const std::string &Dir);
  /// Removes the least recently used entries, except `Keep`, until the
  /// entries take at most the size bound, and leftovers in tmp/.
  void evict(const std::string &Keep);

  CacheConfig Config;
  WarningHandler Warn;
  std::string EntriesDir;
  std::string TmpDir;
  std::string ToolsDir;
  bool Created = false;
  bool Disabled = false;
};

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_COMPILECACHE_H
