//===- ScratchDir.cpp - Temporary directories for tests -------------------===//

#include "ScratchDir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tilert::support {

using detail::makeError;
using detail::Status;

ScratchDir::~ScratchDir() {
  if (Path.empty())
    return;
  std::error_code Ignored;
  std::filesystem::remove_all(Path, Ignored);
}

Status ScratchDir::create() {
  std::error_code Error;
  std::filesystem::path Base = std::filesystem::temp_directory_path(Error);
  if (Error)
    return makeError(TILERT_ERROR_IO,
                     "no temporary directory: ", Error.message());
  std::string Template = (Base / "tilert-XXXXXX").string();
  if (!::mkdtemp(Template.data()))
    return makeError(TILERT_ERROR_IO, "cannot create a directory like '",
                     Template, "': ", std::strerror(errno));
  Path = Template;
  return Status::success();
}

Status ScratchDir::write(const std::string &name, const std::string &bytes,
                         std::string &written) const {
  std::filesystem::path File = std::filesystem::path(Path) / name;
  std::error_code Error;
  std::filesystem::create_directories(File.parent_path(), Error);
  if (Error)
    return makeError(TILERT_ERROR_IO, "cannot create '",
                     File.parent_path().string(), "': ", Error.message());
  std::ofstream Out(File, std::ios::binary);
  Out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  Out.close();
  if (!Out)
    return makeError(TILERT_ERROR_IO, "cannot write '", File.string(), "'");
  written = File.string();
  return Status::success();
}

} // namespace tilert::support
