//===- CacheConfigTest.cpp - Tests of the compile cache's configuration ---===//

#include "compiler/Cache/CacheConfig.h"

#include <catch2/catch.hpp>

using namespace tilec;

TEST_CASE("cache sizes: bytes and binary suffixes", "[cache]") {
  CHECK(parseCacheSize("0") == 0u);
  CHECK(parseCacheSize("4096") == 4096u);
  CHECK(parseCacheSize("1K") == 1024u);
  CHECK(parseCacheSize("1k") == 1024u);
  CHECK(parseCacheSize("512M") == 512u << 20);
  CHECK(parseCacheSize("1G") == std::uint64_t(1) << 30);
  CHECK(parseCacheSize("1GiB") == std::uint64_t(1) << 30);
  CHECK(parseCacheSize("1GB") == std::uint64_t(1) << 30);
  CHECK(parseCacheSize("2T") == std::uint64_t(2) << 40);
  CHECK(parseCacheSize("100B") == 100u);
  CHECK(parseCacheSize("18446744073709551615") == UINT64_MAX);
}

TEST_CASE("cache sizes: malformed ones are refused", "[cache]") {
  for (const char *Text :
       {"", "K", "-1", "+1", "1.5G", "12X", "1 G", " 1", "1G ", "1KK", "1Gi",
        "1BB", "0x10", "18446744073709551616", "17179869184G"})
    CHECK_FALSE(parseCacheSize(Text).has_value());
}

TEST_CASE("cache configuration: directory, bypass and bound", "[cache]") {
  CacheEnvironment Env;
  Env.Home = "/home/u";
  CacheConfig Config = resolveCacheConfig(Env, /*NoCacheFlag=*/false);
  CHECK(Config.Enabled);
  CHECK(Config.Directory == "/home/u/.cache/tilec");
  CHECK(Config.MaxSize == DefaultCacheMaxSize);
  CHECK(Config.Warnings.empty());

  Env.XdgCacheHome = "/xdg";
  CHECK(resolveCacheConfig(Env, false).Directory == "/xdg/tilec");
  // A relative XDG_CACHE_HOME is ignored, as the specification says.
  Env.XdgCacheHome = "relative";
  CHECK(resolveCacheConfig(Env, false).Directory == "/home/u/.cache/tilec");
  Env.CacheDir = "/c";
  CHECK(resolveCacheConfig(Env, false).Directory == "/c");

  CHECK_FALSE(resolveCacheConfig(Env, /*NoCacheFlag=*/true).Enabled);
  Env.DisableCache = "1";
  CHECK_FALSE(resolveCacheConfig(Env, false).Enabled);
  Env.DisableCache = "0";
  CHECK(resolveCacheConfig(Env, false).Enabled);
  Env.DisableCache = "";
  CHECK(resolveCacheConfig(Env, false).Enabled);

  Env.MaxSize = "2M";
  CHECK(resolveCacheConfig(Env, false).MaxSize == 2u << 20);
  Env.MaxSize = "lots";
  Config = resolveCacheConfig(Env, false);
  CHECK(Config.Enabled);
  CHECK(Config.MaxSize == DefaultCacheMaxSize);
  REQUIRE(Config.Warnings.size() == 1);
  CHECK(Config.Warnings[0].find("TILEC_CACHE_MAX_SIZE='lots'") !=
        std::string::npos);
  // Nothing to warn about when the cache is off.
  CHECK(resolveCacheConfig(Env, /*NoCacheFlag=*/true).Warnings.empty());
}

TEST_CASE("cache configuration: no directory disables it", "[cache]") {
  CacheConfig Config = resolveCacheConfig(CacheEnvironment(), false);
  CHECK_FALSE(Config.Enabled);
  REQUIRE(Config.Warnings.size() == 1);
  CHECK(Config.Warnings[0].find("HOME") != std::string::npos);
}
