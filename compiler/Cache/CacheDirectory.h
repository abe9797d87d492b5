//===- CacheDirectory.h - Where tilec's caches live -------------*- C++ -*-===//
//
// The one rule for the root directory of tilec's caches, shared by the
// compile cache (compiler/Cache/CacheConfig.h) and tile-bench's measurement
// cache (tools/tile-bench/MeasurementCache.h). tile-bench builds without the
// compiler, so this header needs nothing but the C++ library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_CACHEDIRECTORY_H
#define TILEC_COMPILER_CACHE_CACHEDIRECTORY_H

#include <optional>
#include <string>

namespace tilec {

/// The root directory of tilec's caches, from the values of TILEC_CACHE_DIR,
/// XDG_CACHE_HOME and HOME (nullopt when unset): `CacheDir` if it is not
/// empty, else `XdgCacheHome/tilec` if XDG_CACHE_HOME is absolute (a relative
/// one is ignored, as the XDG Base Directory specification says), else
/// `Home/.cache/tilec`; empty if none applies.
inline std::string
cacheRootDirectory(const std::optional<std::string> &CacheDir,
                   const std::optional<std::string> &XdgCacheHome,
                   const std::optional<std::string> &Home) {
  if (CacheDir && !CacheDir->empty())
    return *CacheDir;
  if (XdgCacheHome && !XdgCacheHome->empty() && XdgCacheHome->front() == '/')
    return *XdgCacheHome + "/tilec";
  if (Home && !Home->empty())
    return *Home + "/.cache/tilec";
  return "";
}

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_CACHEDIRECTORY_H
