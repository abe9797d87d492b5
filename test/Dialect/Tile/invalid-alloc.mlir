// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{result must be a shared buffer, got a fragment buffer}}
    %x = tile.alloc_shared : !tile.buffer<4xf16, fragment>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{result must be a fragment buffer, got a local buffer}}
    %x = tile.alloc_fragment : !tile.buffer<4xf16, local>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{result must be a rank-0 buffer, got shape [4]}}
    %x = tile.alloc_var : !tile.buffer<4xf16, local>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{result must have at least one dim}}
    %x = tile.alloc_local : !tile.buffer<f16, local>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{offset must be non-negative, got -128}}
    %x = tile.alloc_shared {offset = -128 : i64} : !tile.buffer<4xf16, shared>
  }
}
