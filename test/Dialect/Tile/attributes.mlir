// RUN: tile-opt %s | tile-opt | FileCheck %s

// The target and layout attributes print and parse back unchanged.

// CHECK: module attributes {tile.target = #tile.target<"sm_80", ptx = 80>}
module attributes {tile.target = #tile.target<"sm_80", ptx = 80>} {
  // CHECK: func.func private @fragment(!tile.buffer<64x32xf32, fragment, #tile.flat<vec = 4>>)
  func.func private @fragment(!tile.buffer<64x32xf32, fragment, #tile.flat<vec = 4>>)
  // CHECK: func.func private @annotated(!tile.buffer<64x32xf16, shared, #tile.layout<swizzled>>)
  func.func private @annotated(!tile.buffer<64x32xf16, shared, #tile.layout<swizzled>>)
  // CHECK: func.func private @swizzled(!tile.buffer<3x64x32xf16, shared, #tile.swizzled<vec = 8, per_phase = 2, max_phase = 4>>)
  func.func private @swizzled(!tile.buffer<3x64x32xf16, shared, #tile.swizzled<vec = 8, per_phase = 2, max_phase = 4>>)
  // CHECK: func.func private @padded(!tile.buffer<128x64xf16, shared, #tile.padded<pad = 8>>)
  func.func private @padded(!tile.buffer<128x64xf16, shared, #tile.padded<pad = 8>>)
  // CHECK: func.func private @rows(!tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 8, warps_n = 1>, dim = 1>>)
  func.func private @rows(!tile.buffer<128xf32, fragment, #tile.slice<#tile.mma<warps_m = 8, warps_n = 1>, dim = 1>>)
  // CHECK: func.func private @columns(!tile.buffer<256xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 2, warpgroup = true>, dim = 0>>)
  func.func private @columns(!tile.buffer<256xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 2, warpgroup = true>, dim = 0>>)
  // CHECK: func.func private @sm90a() attributes {target = #tile.target<"sm_90a", ptx = 83>}
  func.func private @sm90a() attributes {target = #tile.target<"sm_90a", ptx = 83>}
}
