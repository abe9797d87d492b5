//===- YamlReader.h - Located reads of a tilec-tune YAML file ---*- C++ -*-===//
//
// What the YAML files of tilec-tune (tuning spaces, kernel manifests) share:
// reading the file, parsing its one document, and typed reads of its nodes
// that report every problem at its place, `file:line:col: error: ...` with
// the line and a caret, as tilec reports `.tile` errors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_YAMLREADER_H
#define TILEC_COMPILER_TUNE_YAMLREADER_H

#include "compiler/Diagnostics.h"
#include "compiler/SourceFile.h"
#include "compiler/Target.h"
#include "compiler/Tune/KernelSpec.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Reads a spec or YAML file `Path` (at most limits::MaxSourceBytes), or
/// returns nullopt with `Problem` set to why not.
std::optional<std::string> readTextFile(const std::string &Path,
                                        std::string &Problem);

/// Parses a decimal integer, optionally negative, within int64.
std::optional<std::int64_t> parseYamlInt(const std::string &Text);

/// Typed reads of the nodes of one YAML file, reporting problems to a sink.
class YamlReader {
public:
  /// A reader of `File`'s YAML whose errors go to `Sink`.
  YamlReader(const SourceFile &File, const DiagnosticSink &Sink)
      : File(File), Sink(Sink) {}

  /// Parses the file's single document (`What` names the kind of file in
  /// messages: "a tuning space"; `IfEmpty` is the error of an empty file);
  /// nullopt after an error (malformed YAML, no document or several).
  std::optional<YAML::Node> parseDocument(const char *What,
                                          const char *IfEmpty);

  /// Reports an error at byte `Offset` of the file.
  void error(std::size_t Offset, std::string Message);
  /// Reports an error at `Node`.
  void error(const YAML::Node &Node, std::string Message) {
    error(Node.Mark().pos, std::move(Message));
  }
  /// Returns the number of errors reported.
  unsigned getNumErrors() const { return Errors; }

  /// A key of a map, with its value.
  struct Entry {
    YAML::Node Key;
    YAML::Node Value;
  };

  /// Returns the entries of the map `Map` (`What` names it in messages),
  /// reporting keys that are not strings, duplicates and, when `Known` is
  /// not empty, keys not in it. Nullopt if `Map` is not a map.
  std::optional<std::vector<Entry>>
  readMap(const YAML::Node &Map, const char *What,
          const std::vector<std::string_view> &Known);
  /// Returns the entry of `Entries` whose key is `Key`, or null.
  static const Entry *find(const std::vector<Entry> &Entries,
                           std::string_view Key);
  /// Loads the kernel a file names with `spec` (a path relative to this
  /// file's directory) and, if not null, `kernel` (needed when the .tile
  /// file has several kernels). Problems are reported (the .tile file's own
  /// as tilec reports them); null after any.
  std::unique_ptr<KernelSpec> loadKernel(const Entry &Spec,
                                         const Entry *Kernel);

  /// Reads a non-empty string scalar.
  std::optional<std::string> readString(const YAML::Node &Node,
                                        const char *What);
  /// Returns the elements of a list, or a scalar as a list of one.
  std::vector<YAML::Node> readList(const YAML::Node &Node);
  /// Reads an integer in [Min, Max].
  std::optional<std::int64_t> readInt(const YAML::Node &Node, const char *What,
                                      std::int64_t Min, std::int64_t Max);
  /// Reads `true` or `false` (YAML's other spellings of booleans, such as
  /// `yes`, are refused); `What` names the value in messages.
  std::optional<bool> readBool(const YAML::Node &Node, const char *What);
  /// Reads an architecture or a list of them (no repeats) into `Archs`;
  /// `Key` names the key in messages ("'arch'").
  void readArchs(const YAML::Node &Node, const char *Key,
                 std::vector<Arch> &Archs);
  /// Checks that `Node` has no explicit YAML tag (`!foo`), which would
  /// change what a value means.
  bool checkTag(const YAML::Node &Node);

  /// Returns the file.
  const SourceFile &getFile() const { return File; }

private:
  const SourceFile &File;
  const DiagnosticSink &Sink;
  unsigned Errors = 0;
};

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_YAMLREADER_H
