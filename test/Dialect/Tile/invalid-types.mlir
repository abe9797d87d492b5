// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{only global buffers may have symbolic dims; shared buffer dim 0 is '?'}}
func.func private @f(!tile.buffer<?x4xf16, shared>)

// -----

// expected-error @+1 {{buffer dim 1 must be positive, got 0}}
func.func private @f(!tile.buffer<4x0xf16, fragment>)

// -----

// expected-error @+1 {{buffer element type must be an integer or float type, got 'index'}}
func.func private @f(!tile.buffer<4xindex, local>)

// -----

// expected-error @+1 {{unknown memory scope 'texture' (expected global, shared, fragment or local)}}
func.func private @f(!tile.buffer<4xf16, texture>)

// -----

// expected-error @+1 {{buffer layout must be a #tile.layout, a thread layout or a shared-memory layout, got 1 : i64}}
func.func private @f(!tile.buffer<4xf16, shared, 1>)

// -----

// expected-error @+1 {{a thread layout such as #tile.flat<vec = 4> needs a fragment buffer}}
func.func private @f(!tile.buffer<64xf16, shared, #tile.flat<vec = 4>>)

// -----

// expected-error @+1 {{vec must be a positive power of two, got 3}}
func.func private @f(!tile.buffer<64xf16, fragment, #tile.flat<vec = 3>>)

// -----

// expected-error @+1 {{max_phase must be a positive power of two, got 6}}
func.func private @f(!tile.buffer<64x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 6>>)

// -----

// expected-error @+1 {{vec must be a positive power of two, got 0}}
func.func private @f(!tile.buffer<64x64xf16, shared, #tile.swizzled<vec = 0, per_phase = 1, max_phase = 8>>)

// -----

// expected-error @+1 {{per_phase must be a positive power of two, got 3}}
func.func private @f(!tile.buffer<64x64xf16, shared, #tile.swizzled<vec = 8, per_phase = 3, max_phase = 8>>)

// -----

// expected-error @+1 {{#tile.swizzled<vec = 8, per_phase = 1, max_phase = 8> needs an innermost extent that is a multiple of vec * max_phase = 64, got 32}}
func.func private @f(!tile.buffer<64x32xf16, shared, #tile.swizzled<vec = 8, per_phase = 1, max_phase = 8>>)

// -----

// expected-error @+1 {{a shared-memory layout such as #tile.swizzled<vec = 8, per_phase = 2, max_phase = 4> needs a shared buffer}}
func.func private @f(!tile.buffer<64x32xf16, fragment, #tile.swizzled<vec = 8, per_phase = 2, max_phase = 4>>)

// -----

// expected-error @+1 {{pad must not be negative, got -8}}
func.func private @f(!tile.buffer<64x32xf16, shared, #tile.padded<pad = -8>>)

// -----

// expected-error @+1 {{a shared-memory layout such as #tile.padded<pad = 8> needs a shared buffer}}
func.func private @f(!tile.buffer<?x32xf16, global, #tile.padded<pad = 8>>)
