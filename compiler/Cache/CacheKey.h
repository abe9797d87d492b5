//===- CacheKey.h - The compile cache's key of one kernel -------*- C++ -*-===//
//
// The compile cache is content-addressed: an entry holds what compiling one
// kernel of one `.tile` file for a list of architectures produced, under the
// SHA-256 of everything that determines those files. CacheKeyInputs lists
// that: the source (its bytes, through their hash, and the path as given,
// which the metadata records), the kernel and its resolved compile-time
// constants, the targets, the stages and every option that changes a file,
// the identity of tilec itself (version, commit, build IDs of the
// executable and of the LLVM/MLIR libraries) and of the CUDA tools it runs
// (path, version, size and modification time). A field that does not change
// the output may be in the key; a field that does must be.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_CACHE_CACHEKEY_H
#define TILEC_COMPILER_CACHE_CACHEKEY_H

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilec {

/// A compile-time parameter with its resolved value.
struct CacheKeyConstant {
  /// The parameter's name.
  std::string Name;
  /// What the value is: `int`, `float`, `bool` or `type`.
  std::string Kind;
  /// The value, spelled so that it reads back as itself (`1.5`, `f16`).
  std::string Value;
};

/// An external program or file the compilation uses.
struct CacheKeyTool {
  /// What it is: `ptxas`, `fatbinary`, `libdevice`.
  std::string Role;
  /// Where it was found; empty if it was not.
  std::string Path;
  /// What it says its version is (`--version` output); empty for a file.
  std::string Version;
  /// Its size, modification time and file identity (getFileStamp).
  std::string Stamp;
};

/// Everything that determines the files compiling one kernel produces.
struct CacheKeyInputs {
  /// tilec's release (TILEC_VERSION).
  std::string TilecVersion;
  /// The commit tilec was configured from (may be empty).
  std::string TilecCommit;
  /// The build IDs of the executable and the libraries (getBuildIdentity).
  std::string TilecBuild;
  /// LLVM's version string.
  std::string LLVMVersion;
  /// The source file as named on the command line (the metadata records
  /// it; `<stdin>` for standard input).
  std::string SourcePath;
  /// The SHA-256 of the source file's bytes.
  std::string SourceSha256;
  /// The kernel's name.
  std::string Kernel;
  /// Its compile-time parameters with their resolved values (defaults
  /// and `-D`), in declaration order.
  std::vector<CacheKeyConstant> Constants;
  /// The `-D` options as given.
  std::vector<std::string> Defines;
  /// The `--kernel` options as given.
  std::vector<std::string> KernelSelection;
  /// The targets in command-line order, each `<arch>/ptx<version>`.
  std::vector<std::string> Targets;
  /// The stages of the code generator emitted, as `--emit` names them.
  std::vector<std::string> Stages;
  /// The stem of the file names (the variant's or `--output-name`'s).
  std::string FileStem;
  /// `--output-name` as given.
  std::string OutputNameTemplate;
  /// `-O`.
  unsigned OptLevel = 3;
  /// `-lineinfo`.
  bool LineInfo = false;
  /// `--fast-math`.
  bool FastMath = false;
  /// `--clusters`.
  bool Clusters = false;
  /// `--stats` (which also assembles with ptxas, and so fills in the
  /// metadata's resources, when no binary is emitted).
  bool Stats = false;
  /// Whether the metadata lists the binaries (not when printed).
  bool ListBinaries = true;
  /// The CUDA tools and files used.
  std::vector<CacheKeyTool> Tools;
};

/// Returns `Inputs` as a JSON object, every field under its name (for
/// people: an entry's manifest records what it was compiled from; bytes
/// that are not UTF-8 print as U+FFFD).
nlohmann::ordered_json describeCacheKeyInputs(const CacheKeyInputs &Inputs);

/// Returns the key of `Inputs`: the lowercase hex SHA-256 of the key format
/// and every field, each length-prefixed so that no two inputs serialize
/// alike.
std::string computeCacheKey(const CacheKeyInputs &Inputs);

/// Returns true if `Text` has the form of a key (64 lowercase hex digits).
bool isCacheKey(const std::string &Text);

} // namespace tilec

#endif // TILEC_COMPILER_CACHE_CACHEKEY_H
