//===- CacheManifest.h - The manifest of a compile cache entry --*- C++ -*-===//
//
// Every entry of the compile cache is a directory holding the files one
// compilation produced and `manifest.json`, written last:
//
//   {
//     "format": "tilec-cache-entry/1",
//     "key": "<64 hex digits: the entry's directory name>",
//     "files": [
//       {"name": "gemm.sm_90a.cubin", "stored": "0-gemm.sm_90a.cubin",
//        "size": 31520, "sha256": "<64 hex digits>"}, ...
//     ],
//     "messages": ["gemm sm_90a: 168 registers, ..."],
//     "inputs": { what the key was computed from (CacheKey.h) }
//   }
//
// `name` is the file as the compilation writes it, `stored` its name in the
// entry; `messages` are the --stats lines of the compilation. A manifest
// that does not parse, or whose files are missing or do not match their
// size and hash, marks the entry as corrupt.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_CACHEMANIFEST_H
#define TILEC_COMPILER_CACHE_CACHEMANIFEST_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// One file of an entry.
struct CacheManifestFile {
  /// The file's name in the compilation's output.
  std::string Name;
  /// The file's name in the entry's directory.
  std::string Stored;
  /// Its size in bytes.
  std::uint64_t Size = 0;
  /// The lowercase hex SHA-256 of its bytes.
  std::string Sha256;
};

/// The manifest of an entry.
struct CacheManifest {
  /// The entry's key.
  std::string Key;
  /// The entry's files, in the order the compilation produced them.
  std::vector<CacheManifestFile> Files;
  /// The messages the compilation printed (--stats lines), in order.
  std::vector<std::string> Messages;
  /// What the key was computed from (describeCacheKeyInputs); informative.
  nlohmann::ordered_json Inputs = nlohmann::ordered_json::object();
};

/// The name of the manifest in an entry's directory.
constexpr const char *CacheManifestName = "manifest.json";

/// Returns the name under which file `Index`, named `Name` in the output,
/// is stored in an entry: `<Index>-<Name>`, every character but letters,
/// digits, `.`, `_`, `+` and `-` replaced by `_`.
std::string getStoredFileName(std::size_t Index, std::string_view Name);

/// Returns true if `Text` is valid UTF-8, as every string of a manifest
/// must be to read back as itself.
bool isValidManifestString(std::string_view Text);

/// Returns the text of `Manifest` (JSON, ending in a newline). Its strings
/// must be valid UTF-8 (isValidManifestString).
std::string printCacheManifest(const CacheManifest &Manifest);

/// Parses the text of a manifest into `Manifest`. Returns an empty string
/// on success, otherwise what is wrong: not JSON, another format, a
/// missing or mistyped field, a key or hash that is not 64 hex digits, a
/// stored name that is not a plain file name of the entry, or a name or
/// stored name given twice.
std::string parseCacheManifest(std::string_view Text, CacheManifest &Manifest);

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_CACHEMANIFEST_H
