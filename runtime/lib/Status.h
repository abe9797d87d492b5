//===- Status.h - Internal status values ------------------------*- C++ -*-===//
//
// Every internal operation that can fail returns a Status: a tilertStatus code
// plus a message naming the argument, field or file at fault. The C API turns
// it into its return value and the thread's last-error message.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_STATUS_H
#define TILERT_LIB_STATUS_H

#include "tilert/tilert.h"

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tilert::detail {

/// The outcome of an operation: success, or an error code with a message.
class [[nodiscard]] Status {
public:
  /// A success.
  Status() = default;
  /// An error with `code` (not TILERT_SUCCESS) and `message`.
  Status(tilertStatus code, std::string message)
      : Code(code), Message(std::move(message)) {}

  /// A success.
  static Status success() { return Status(); }

  /// Whether this is a success.
  bool ok() const { return Code == TILERT_SUCCESS; }
  /// The status code.
  tilertStatus code() const { return Code; }
  /// The error message ("" for a success).
  const std::string &message() const { return Message; }

  /// Returns this error with `prefix` prepended to its message; a success is
  /// returned unchanged.
  Status withPrefix(const std::string &prefix) const {
    return ok() ? Status() : Status(Code, prefix + Message);
  }

private:
  tilertStatus Code = TILERT_SUCCESS;
  std::string Message;
};

/// Concatenates the stream representations of `parts`.
template <typename... Ts> std::string strCat(const Ts &...parts) {
  std::ostringstream OS;
  (OS << ... << parts);
  return OS.str();
}

/// Joins `items` with ", " (for messages listing names).
std::string joinNames(const std::vector<std::string> &items);

/// Builds an error with `code` whose message concatenates `parts`.
template <typename... Ts>
Status makeError(tilertStatus code, const Ts &...parts) {
  return Status(code, strCat(parts...));
}

/// Returns the enumerator name of `code`, or "TILERT_ERROR_UNKNOWN".
const char *statusName(tilertStatus code);

} // namespace tilert::detail

/// Returns from the enclosing function if `expr` (a Status) is an error.
#define TILERT_TRY(expr)                                                       \
  do {                                                                         \
    ::tilert::detail::Status TilertTryStatus = (expr);                         \
    if (!TilertTryStatus.ok())                                                 \
      return TilertTryStatus;                                                  \
  } while (false)

#endif // TILERT_LIB_STATUS_H
