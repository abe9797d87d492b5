// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown architecture 'sm_75' (valid: sm_80, sm_86, sm_89, sm_90, sm_90a)}}
module attributes {tile.target = #tile.target<"sm_75", ptx = 80>} {}

// -----

// expected-error @+1 {{architecture 'sm_100a' (Blackwell, compute capability 10.0) is not supported yet: tilec's code generator targets sm_80, sm_86, sm_89, sm_90, sm_90a}}
module attributes {tile.target = #tile.target<"sm_100a", ptx = 86>} {}

// -----

// expected-error @+1 {{PTX ISA 7.8 cannot target sm_90a (it needs at least 8.0)}}
module attributes {tile.target = #tile.target<"sm_90a", ptx = 78>} {}

// -----

// expected-error @+1 {{vec must be a positive power of two, got 0}}
func.func private @f(!tile.buffer<64xf32, fragment, #tile.flat<vec = 0>>)

// -----

// expected-error @+1 {{dim must be 0 or 1 (the sliced dimension of the parent's rank-2 tile), got 2}}
func.func private @f(!tile.buffer<64xf32, fragment, #tile.slice<#tile.mma<warps_m = 4, warps_n = 1>, dim = 2>>)

// -----

// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse Tile_SliceLayoutAttr parameter 'parent' which is to be a `MmaLayoutAttr`}}
func.func private @f(!tile.buffer<64xf32, fragment, #tile.slice<#tile.flat<vec = 1>, dim = 1>>)
