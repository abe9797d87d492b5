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

// expected-error @+1 {{buffer layout must be a #tile.layout or a thread layout, got 1 : i64}}
func.func private @f(!tile.buffer<4xf16, shared, 1>)

// -----

// expected-error @+1 {{a thread layout such as #tile.flat<vec = 4> needs a fragment buffer}}
func.func private @f(!tile.buffer<64xf16, shared, #tile.flat<vec = 4>>)

// -----

// expected-error @+1 {{vec must be a positive power of two, got 3}}
func.func private @f(!tile.buffer<64xf16, fragment, #tile.flat<vec = 3>>)
