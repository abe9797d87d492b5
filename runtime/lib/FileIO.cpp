//===- FileIO.cpp - Reading whole files -------------------------*- C++ -*-===//

#include "FileIO.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilert::detail {

namespace {

/// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : Fd(fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() {
    if (Fd >= 0)
      ::close(Fd);
  }
  int get() const { return Fd; }

private:
  int Fd;
};

Status ioError(const std::string &what, const std::string &path, int error) {
  return makeError(TILERT_ERROR_IO, "cannot ", what, " '", path,
                   "': ", std::strerror(error));
}

} // namespace

Status readFile(const std::string &path, std::string &out) {
  FileDescriptor File(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (File.get() < 0)
    return ioError("open", path, errno);
  struct stat Info;
  if (::fstat(File.get(), &Info) != 0)
    return ioError("stat", path, errno);
  if (!S_ISREG(Info.st_mode))
    return makeError(TILERT_ERROR_IO, "cannot read '", path,
                     "': not a regular file");
  std::string Data;
  Data.resize(static_cast<size_t>(Info.st_size));
  size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t Got = ::read(File.get(), Data.data() + Done, Data.size() - Done);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got < 0)
      return ioError("read", path, errno);
    if (Got == 0)
      break; // The file shrank while being read.
    Done += static_cast<size_t>(Got);
  }
  Data.resize(Done);
  out = std::move(Data);
  return Status::success();
}

std::string siblingPath(const std::string &base, const std::string &file) {
  return (std::filesystem::path(base).parent_path() / file).string();
}

} // namespace tilert::detail
