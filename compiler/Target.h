//===- Target.h - GPU architectures tilec compiles for ----------*- C++ -*-===//

#ifndef TILEC_COMPILER_TARGET_H
#define TILEC_COMPILER_TARGET_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace tilec {

/// The supported GPU architectures.
enum class Arch { SM80, SM86, SM89, SM90, SM90a };

/// Returns the architecture spelled `Name` (`sm_80`, ..., `sm_90a`), if any.
std::optional<Arch> parseArch(std::string_view Name);
/// Returns the spelling of `A`: `sm_90a`.
const char *getArchName(Arch A);
/// Returns the valid spellings, comma-separated, for messages.
const char *getArchList();
/// Returns the architecture compiled for when none is given.
inline Arch getDefaultArch() { return Arch::SM90a; }
/// Returns the most shared memory one thread block may use on `A`, in bytes
/// (the opt-in limit, `sharedMemPerBlockOptin`).
std::int64_t getMaxSharedMemoryPerBlock(Arch A);

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_H
