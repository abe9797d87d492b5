// RUN: tile-opt %s --tile-set-target=arch=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s --tile-set-target="arch=sm_90a ptx=86" | FileCheck %s --check-prefix=PTX86
// RUN: tile-opt %s --tile-set-target | FileCheck %s --check-prefix=DEFAULT

// The architecture's default PTX ISA version unless one is given.
// SM80: module attributes {tile.target = #tile.target<"sm_80", ptx = 80>}
// PTX86: module attributes {tile.target = #tile.target<"sm_90a", ptx = 86>}
// DEFAULT: module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>}
module {
}
