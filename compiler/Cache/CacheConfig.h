//===- CacheConfig.h - Where the compile cache is and how large -*- C++ -*-===//
//
// The compile cache (compiler/Cache/CompileCache.h) is configured by the
// environment and one flag:
//
//   TILEC_CACHE_DIR       the cache's directory (default
//                         $XDG_CACHE_HOME/tilec, else $HOME/.cache/tilec)
//   TILEC_DISABLE_CACHE   any value but "" and "0" bypasses the cache
//   TILEC_CACHE_MAX_SIZE  the size bound in bytes, with an optional K, M, G
//                         or T suffix (powers of 1024; default 1G)
//   --no-cache            bypasses the cache
//
// Reading the configuration never fails: a malformed size is a warning and
// the default is used, a missing home directory disables the cache.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_CACHECONFIG_H
#define TILEC_COMPILER_CACHE_CACHECONFIG_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The size bound of a cache when TILEC_CACHE_MAX_SIZE is not set: 1 GiB.
constexpr std::uint64_t DefaultCacheMaxSize = std::uint64_t(1) << 30;

/// The environment variables that configure the cache, as read (nullopt
/// when unset).
struct CacheEnvironment {
  /// TILEC_CACHE_DIR.
  std::optional<std::string> CacheDir;
  /// TILEC_DISABLE_CACHE.
  std::optional<std::string> DisableCache;
  /// TILEC_CACHE_MAX_SIZE.
  std::optional<std::string> MaxSize;
  /// XDG_CACHE_HOME.
  std::optional<std::string> XdgCacheHome;
  /// HOME.
  std::optional<std::string> Home;

  /// Reads the variables of this process.
  static CacheEnvironment fromProcess();
};

/// How a compilation uses the cache.
struct CacheConfig {
  /// False when the cache is bypassed (TILEC_DISABLE_CACHE, --no-cache, no
  /// directory to use).
  bool Enabled = false;
  /// The cache's directory.
  std::string Directory;
  /// The most bytes the entries may take together.
  std::uint64_t MaxSize = DefaultCacheMaxSize;
  /// Problems with the configuration, as warning messages.
  std::vector<std::string> Warnings;
};

/// Parses a size: decimal digits, optionally followed by K, M, G or T (upper
/// or lower case, powers of 1024) and an optional `B` or `iB` after the
/// suffix (`512M`, `1GiB`, `4096`). Returns nullopt for anything else or a
/// size that does not fit in 64 bits.
std::optional<std::uint64_t> parseCacheSize(std::string_view Text);

/// Returns the configuration for `Env`; `NoCacheFlag` is --no-cache.
CacheConfig resolveCacheConfig(const CacheEnvironment &Env, bool NoCacheFlag);

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_CACHECONFIG_H
