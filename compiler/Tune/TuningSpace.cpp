//===- TuningSpace.cpp - A kernel's tuning space, read from YAML ----------===//

#include "compiler/Tune/TuningSpace.h"
#include "compiler/Tune/YamlReader.h"

#include "compiler/Limits.h"
#include "compiler/Sema.h"
#include "compiler/Suggestions.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

using namespace tilec;

std::vector<ExprVariable> TuningSpace::getVariables() const {
  std::vector<ExprVariable> Variables;
  for (const KernelParam &Param : Kernel->getParams())
    Variables.push_back({Param.Name, Param.Default.K});
  return Variables;
}

SourceLoc TuningSpace::getLoc(const SpaceConstraint &C,
                              std::size_t Offset) const {
  return File->getLoc(
      static_cast<std::uint32_t>(C.Exact ? C.Offset + Offset : C.Offset));
}

namespace {

/// The keys of a tuning space, in the order docs/tuning.md lists them.
constexpr const char *TopLevelKeys[] = {"spec",       "kernel",      "arch",
                                        "parameters", "constraints", "limits",
                                        "shapes",     "fast_math"};
/// The keys of `limits`.
constexpr const char *LimitKeys[] = {"max_registers", "max_spill_bytes",
                                     "max_performance_warnings"};

/// Reads a YAML scalar as a compile-time value of kind `K`.
std::optional<Constant> parseValue(const std::string &Text, Constant::Kind K) {
  switch (K) {
  case Constant::Kind::Int:
    if (std::optional<std::int64_t> Int = parseYamlInt(Text))
      return Constant::getInt(*Int);
    break;
  case Constant::Kind::Float:
    if (std::optional<double> Float = parseDefineFloat(Text))
      return Constant::getFloat(*Float);
    break;
  case Constant::Kind::Bool:
    if (Text == "true" || Text == "false")
      return Constant::getBool(Text == "true");
    break;
  case Constant::Kind::Type:
    if (std::optional<ScalarKind> Type = parseElementType(Text))
      return Constant::getType(*Type);
    break;
  }
  return std::nullopt;
}

/// Returns true if two values of one kind are the same.
bool sameValue(const Constant &A, const Constant &B) {
  return A.toString() == B.toString();
}

/// Reads the YAML of a tuning space into a TuningSpace, reporting problems
/// at their place in the file.
class SpaceLoader : public YamlReader {
public:
  SpaceLoader(TuningSpace &Space, const DiagnosticSink &Sink)
      : YamlReader(*Space.File, Sink), Space(Space), Sink(Sink) {}

  /// Loads the space; false after any error.
  bool load(const YAML::Node &Root);

private:
  void loadParameters(const Entry &Parameters);
  void loadConstraints(const YAML::Node &Node);
  void loadLimits(const YAML::Node &Node);
  void loadShapes(const Entry &Shapes);

  TuningSpace &Space;
  const DiagnosticSink &Sink;
};

void SpaceLoader::loadParameters(const Entry &Parameters) {
  std::optional<std::vector<Entry>> Entries =
      readMap(Parameters.Value, "'parameters'", {});
  if (!Entries)
    return;
  const std::vector<KernelParam> &Params = Space.Kernel->getParams();
  std::vector<std::string_view> Names;
  for (const KernelParam &Param : Params)
    Names.push_back(Param.Name);
  std::vector<SpaceParameter> Loaded;
  for (const Entry &E : *Entries) {
    const std::string &Name = E.Key.Scalar();
    auto Found =
        std::find_if(Params.begin(), Params.end(),
                     [&](const KernelParam &P) { return P.Name == Name; });
    if (Found == Params.end()) {
      std::string Message = "'" + Name +
                            "' is not a compile-time parameter of kernel '" +
                            Space.Kernel->getName() + "'";
      std::string Closest = closestName(Name, Names);
      if (!Closest.empty()) {
        Message += "; did you mean '" + Closest + "'?";
      } else {
        Message += " (its parameters: ";
        for (std::size_t I = 0; I != Names.size(); ++I)
          Message += (I ? ", " : "") + std::string(Names[I]);
        Message += ")";
      }
      error(E.Key, Message);
      continue;
    }
    SpaceParameter Parameter;
    Parameter.Index = static_cast<std::size_t>(Found - Params.begin());
    Constant::Kind Kind = Found->Default.K;
    if (E.Value.IsSequence() && E.Value.size() == 0)
      error(E.Value, "'" + Name + "' has no candidate values");
    for (const YAML::Node &Item : readList(E.Value)) {
      if (!Item.IsScalar()) {
        error(Item.IsNull() ? E.Key : Item,
              "the candidate values of '" + Name +
                  "' must be a value or a list of values");
        continue;
      }
      if (!checkTag(Item))
        continue;
      std::optional<Constant> Value = parseValue(Item.Scalar(), Kind);
      if (!Value) {
        std::string Message = "'" + Item.Scalar() + "' is not " +
                              describeKind(Kind) + ": '" + Name +
                              "' is a parameter of that kind (default " +
                              Found->Default.toString() + ")";
        if (Kind == Constant::Kind::Type)
          Message += std::string("; element types: ") + getElementTypeList();
        error(Item, Message);
        continue;
      }
      bool Duplicate = false;
      for (const Constant &Earlier : Parameter.Values)
        Duplicate |= sameValue(Earlier, *Value);
      if (Duplicate) {
        error(Item, "'" + Name + "' lists " + Value->toString() + " twice");
        continue;
      }
      Parameter.Values.push_back(*Value);
    }
    Loaded.push_back(std::move(Parameter));
  }
  std::sort(Loaded.begin(), Loaded.end(),
            [](const SpaceParameter &A, const SpaceParameter &B) {
              return A.Index < B.Index;
            });
  Space.Parameters = std::move(Loaded);
}

void SpaceLoader::loadConstraints(const YAML::Node &Node) {
  if (!Node.IsSequence()) {
    error(Node, "'constraints' must be a list of expressions (`- a <= b` "
                "lines)");
    return;
  }
  std::vector<ExprVariable> Variables = Space.getVariables();
  std::string_view Contents = Space.File->getContents();
  for (const YAML::Node &Item : Node) {
    std::optional<std::string> Text = readString(Item, "a constraint");
    if (!Text)
      continue;
    // Point into the expression when the file holds it as it is: a plain
    // scalar, or a quoted one without escapes, on one line.
    std::size_t Start = Item.Mark().pos;
    bool Quoted = Start < Contents.size() &&
                  (Contents[Start] == '"' || Contents[Start] == '\'');
    std::size_t First = Start + (Quoted ? 1 : 0);
    bool Exact = Text->find('\n') == std::string::npos &&
                 Contents.substr(First, Text->size()) == *Text;
    std::uint32_t Offset = static_cast<std::uint32_t>(Exact ? First : Start);
    ExprError Failure;
    std::optional<SpaceExpr> Expr = SpaceExpr::parse(*Text, Variables, Failure);
    auto Report = [&](std::size_t At, const std::string &Message) {
      error(Exact ? Offset + At : Offset, Message);
    };
    if (!Expr) {
      Report(Failure.Offset, Failure.Message);
      continue;
    }
    if (Expr->getKind() != Constant::Kind::Bool) {
      Report(0, std::string("a constraint must be a boolean (such as "
                            "'a <= b'), but this is ") +
                    describeKind(Expr->getKind()));
      continue;
    }
    Space.Constraints.push_back({*Text, std::move(*Expr), Offset, Exact});
  }
}

void SpaceLoader::loadLimits(const YAML::Node &Node) {
  std::optional<std::vector<Entry>> Entries =
      readMap(Node, "'limits'",
              std::vector<std::string_view>(std::begin(LimitKeys),
                                            std::end(LimitKeys)));
  if (!Entries)
    return;
  for (const Entry &E : *Entries) {
    if (E.Key.Scalar() == "max_registers") {
      if (std::optional<std::int64_t> Value =
              readInt(E.Value, "'max_registers'", 1, 255))
        Space.Limits.MaxRegisters = static_cast<unsigned>(*Value);
    } else if (E.Key.Scalar() == "max_spill_bytes") {
      if (std::optional<std::int64_t> Value =
              readInt(E.Value, "'max_spill_bytes'", 0, INT32_MAX))
        Space.Limits.MaxSpillBytes = static_cast<std::uint64_t>(*Value);
    } else if (std::optional<std::int64_t> Value = readInt(
                   E.Value, "'max_performance_warnings'", 0, INT32_MAX)) {
      Space.Limits.MaxPerformanceWarnings = static_cast<std::uint64_t>(*Value);
    }
  }
}

void SpaceLoader::loadShapes(const Entry &Shapes) {
  if (!Shapes.Value.IsSequence() || Shapes.Value.size() == 0) {
    error(Shapes.Value.IsNull() ? Shapes.Key : Shapes.Value,
          "'shapes' must be a non-empty list of shapes, such as "
          "`- {M: 4096, N: 4096, K: 4096}`");
    return;
  }
  const std::vector<std::string> &Dims = Space.Kernel->getDims();
  std::vector<std::string_view> DimNames(Dims.begin(), Dims.end());
  std::string DimList;
  for (const std::string &Dim : Dims)
    DimList += (DimList.empty() ? "" : ", ") + Dim;
  for (const YAML::Node &Item : Shapes.Value) {
    std::optional<std::vector<Entry>> Entries = readMap(Item, "a shape", {});
    if (!Entries)
      continue;
    SpaceShape Shape;
    bool Valid = true;
    std::vector<std::optional<std::int64_t>> Extents(Dims.size());
    for (const Entry &E : *Entries) {
      auto Found = std::find(Dims.begin(), Dims.end(), E.Key.Scalar());
      if (Found == Dims.end()) {
        std::string Message =
            "'" + E.Key.Scalar() + "' is not a dimension of kernel '" +
            Space.Kernel->getName() + "' (" +
            (Dims.empty() ? "it has none" : "its dimensions: " + DimList) + ")";
        std::string Closest = closestName(E.Key.Scalar(), DimNames);
        if (!Closest.empty())
          Message += "; did you mean '" + Closest + "'?";
        error(E.Key, Message);
        Valid = false;
        continue;
      }
      std::optional<std::int64_t> Extent =
          readInt(E.Value, "a dimension", 1, INT32_MAX);
      Valid &= Extent.has_value();
      Extents[static_cast<std::size_t>(Found - Dims.begin())] = Extent;
    }
    for (std::size_t I = 0; Valid && I != Dims.size(); ++I)
      if (!Extents[I]) {
        error(Item, "the shape gives no value for dimension '" + Dims[I] +
                        "' (kernel '" + Space.Kernel->getName() +
                        "' has dimensions " + DimList + ")");
        Valid = false;
      }
    if (!Valid)
      continue;
    for (std::size_t I = 0; I != Dims.size(); ++I)
      Shape.Dims.push_back({Dims[I], *Extents[I]});
    Space.Shapes.push_back(std::move(Shape));
  }
}

bool SpaceLoader::load(const YAML::Node &Root) {
  if (!Root.IsMap()) {
    error(Root, "a tuning space is a map with the keys spec, arch, "
                "parameters and shapes (docs/tuning.md)");
    return false;
  }
  std::optional<std::vector<Entry>> Entries =
      readMap(Root, "a tuning space",
              std::vector<std::string_view>(std::begin(TopLevelKeys),
                                            std::end(TopLevelKeys)));
  if (!Entries)
    return false;
  auto Find = [&](std::string_view Key) { return find(*Entries, Key); };
  for (const char *Required : {"spec", "arch", "parameters", "shapes"})
    if (!Find(Required))
      error(Root, std::string("the tuning space has no '") + Required +
                      "' key" +
                      (std::string_view(Required) == "spec"
                           ? " (the .tile file, relative to this one)"
                           : ""));
  if (const Entry *Arch = Find("arch"))
    readArchs(Arch->Value, "'arch'", Space.Archs);

  // The kernel: everything else is checked against it.
  const Entry *Spec = Find("spec");
  if (!Spec)
    return false;
  Space.Kernel = loadKernel(*Spec, Find("kernel"));
  if (!Space.Kernel)
    return false;

  if (const Entry *Parameters = Find("parameters"))
    loadParameters(*Parameters);
  if (const Entry *Constraints = Find("constraints"))
    loadConstraints(Constraints->Value);
  if (const Entry *Limits = Find("limits"))
    loadLimits(Limits->Value);
  if (const Entry *FastMath = Find("fast_math"))
    if (std::optional<bool> Value = readBool(FastMath->Value, "'fast_math'"))
      Space.FastMath = *Value;
  if (const Entry *Shapes = Find("shapes"))
    loadShapes(*Shapes);
  return getNumErrors() == 0;
}

} // namespace

std::unique_ptr<TuningSpace>
tilec::loadTuningSpace(const std::string &Path, const DiagnosticSink &Sink) {
  auto Space = std::make_unique<TuningSpace>();
  std::string Problem;
  std::optional<std::string> Contents = readTextFile(Path, Problem);
  if (!Contents) {
    Diagnostic D;
    D.Message = "cannot read the tuning space '" + Path + "': " + Problem;
    Sink(renderDiagnostic(nullptr, "tilec-tune", D));
    return nullptr;
  }
  Space->File = std::make_unique<SourceFile>(Path, *Contents);
  SpaceLoader Loader(*Space, Sink);
  std::optional<YAML::Node> Root = Loader.parseDocument(
      "a tuning space",
      "the tuning space is empty (docs/tuning.md describes its keys)");
  if (!Root || !Loader.load(*Root))
    return nullptr;
  return Space;
}
