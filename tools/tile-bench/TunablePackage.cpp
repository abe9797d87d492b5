//===- TunablePackage.cpp - A kernel package to tune ----------------------===//

#include "TunablePackage.h"

#include "FileIO.h"
#include "PackageIndex.h"
#include "Sha256.h"
#include "Workload.h"

namespace tilebench {

std::string describeDims(const DimValues &dims) {
  std::string Text;
  for (const auto &[Name, Value] : dims)
    Text += (Text.empty() ? "" : " ") + Name + "=" + std::to_string(Value);
  return Text.empty() ? "no dims" : Text;
}

TunablePackage readTunablePackage(const std::string &directory) {
  TunablePackage Index;
  Index.Directory = directory;
  Index.IndexPath = directory + "/index.json";
  std::string Bytes;
  if (!tilert::detail::readFile(Index.IndexPath, Bytes).ok())
    throw BenchError(Index.IndexPath + ": cannot be read (is '" + directory +
                     "' a kernel package written by tilec-tune compile?)");
  Index.IndexSha256 = tilert::detail::sha256Hex(Bytes);
  // The runtime's reader: what tile-bench tunes is what the runtime opens.
  tilert::detail::PackageIndex Parsed;
  check(tilert::detail::parsePackageIndex(Bytes, Index.IndexPath, Parsed));
  Index.Kernel = Parsed.Kernel;
  Index.Default = Parsed.Default;
  Index.Shapes = Parsed.Shapes;
  for (const tilert::detail::PackageVariantInfo &Variant : Parsed.Variants)
    Index.Variants.push_back(
        {Variant.Name, Variant.Target.Name, Variant.MetadataPath});
  return Index;
}

} // namespace tilebench
