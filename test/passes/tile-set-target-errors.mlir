// RUN: not tile-opt %s --tile-set-target=arch=sm_75 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not tile-opt %s --tile-set-target=arch=sm_120a 2>&1 | FileCheck %s --check-prefix=FUTURE
// RUN: not tile-opt %s --tile-set-target="arch=sm_90a ptx=78" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not tile-opt %s --tile-set-target=arch=sm_80 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: tile-opt %s --tile-set-target=arch=sm_90a | FileCheck %s --check-prefix=SAME

// ARCH: [[@LINE+6]]:1: error: unknown architecture 'sm_75' (valid: sm_80, sm_86, sm_89, sm_90, sm_90a)
// FUTURE: [[@LINE+5]]:1: error: architecture 'sm_120a' (Blackwell (GeForce RTX 50, RTX PRO), compute capability 12.0) is not supported yet: tilec's code generator targets sm_80, sm_86, sm_89, sm_90, sm_90a
// PTX: [[@LINE+4]]:1: error: PTX ISA 7.8 cannot target sm_90a (it needs at least 8.0)
// CONFLICT: [[@LINE+3]]:1: error: the module's target #tile.target<"sm_90a", ptx = 83> is not #tile.target<"sm_80", ptx = 80>
// A module that already names the same target keeps it.
// SAME: module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>}
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
}
