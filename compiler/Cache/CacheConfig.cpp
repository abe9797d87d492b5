//===- CacheConfig.cpp - Where the compile cache is and how large ---------===//

#include "compiler/Cache/CacheConfig.h"
#include "compiler/Cache/CacheDirectory.h"

#include <cstdlib>

using namespace tilec;

namespace {
/// Returns the variable `Name`, if set.
std::optional<std::string> getVariable(const char *Name) {
  if (const char *Value = std::getenv(Name))
    return std::string(Value);
  return std::nullopt;
}
} // namespace

CacheEnvironment CacheEnvironment::fromProcess() {
  CacheEnvironment Env;
  Env.CacheDir = getVariable("TILEC_CACHE_DIR");
  Env.DisableCache = getVariable("TILEC_DISABLE_CACHE");
  Env.MaxSize = getVariable("TILEC_CACHE_MAX_SIZE");
  Env.XdgCacheHome = getVariable("XDG_CACHE_HOME");
  Env.Home = getVariable("HOME");
  return Env;
}

std::optional<std::uint64_t> tilec::parseCacheSize(std::string_view Text) {
  std::size_t Digits = 0;
  std::uint64_t Value = 0;
  for (; Digits < Text.size() && Text[Digits] >= '0' && Text[Digits] <= '9';
       ++Digits) {
    unsigned Digit = Text[Digits] - '0';
    if (Value > (UINT64_MAX - Digit) / 10)
      return std::nullopt;
    Value = Value * 10 + Digit;
  }
  if (Digits == 0)
    return std::nullopt;
  std::string_view Suffix = Text.substr(Digits);
  if (Suffix.empty())
    return Value;
  unsigned Shift;
  switch (Suffix.front()) {
  case 'k':
  case 'K':
    Shift = 10;
    break;
  case 'm':
  case 'M':
    Shift = 20;
    break;
  case 'g':
  case 'G':
    Shift = 30;
    break;
  case 't':
  case 'T':
    Shift = 40;
    break;
  case 'b':
  case 'B':
    Shift = 0;
    break;
  default:
    return std::nullopt;
  }
  Suffix.remove_prefix(1);
  if (Shift != 0 && !Suffix.empty() && Suffix != "B" && Suffix != "b" &&
      Suffix != "iB" && Suffix != "ib")
    return std::nullopt;
  if (Shift == 0 && !Suffix.empty())
    return std::nullopt;
  if (Value > (UINT64_MAX >> Shift))
    return std::nullopt;
  return Value << Shift;
}

CacheConfig tilec::resolveCacheConfig(const CacheEnvironment &Env,
                                      bool NoCacheFlag) {
  CacheConfig Config;
  if (NoCacheFlag || (Env.DisableCache && !Env.DisableCache->empty() &&
                      *Env.DisableCache != "0"))
    return Config;
  if (Env.MaxSize) {
    if (std::optional<std::uint64_t> Size = parseCacheSize(*Env.MaxSize))
      Config.MaxSize = *Size;
    else
      Config.Warnings.push_back(
          "TILEC_CACHE_MAX_SIZE='" + *Env.MaxSize +
          "' is not a size (bytes, optionally with a K, M, G or T suffix, "
          "such as 512M); the compile cache keeps its default bound of 1G");
  }
  Config.Directory =
      cacheRootDirectory(Env.CacheDir, Env.XdgCacheHome, Env.Home);
  if (Config.Directory.empty()) {
    Config.Warnings.push_back(
        "the compile cache has no directory (neither TILEC_CACHE_DIR, "
        "XDG_CACHE_HOME nor HOME is set); compiling without it");
    return Config;
  }
  Config.Enabled = true;
  return Config;
}
