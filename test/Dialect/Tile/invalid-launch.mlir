// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+2 {{threads must be a multiple of 32 between 32 and 1024, got 100}}
tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(100) as (%bx) {
  }
}

// -----

// expected-error @+2 {{threads must be a multiple of 32 between 32 and 1024, got 2048}}
tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(2048) as (%bx) {
  }
}

// -----

// expected-error @+2 {{grid must have 1 to 3 dimensions, got 4}}
tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M, %M, %M, %M) threads(128) as (%a, %b, %c, %d) {
  }
}

// -----

// expected-error @+2 {{body must have one block index per grid dimension}}
tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M, %M) threads(128) as (%a) {
  }
}

// -----

%c = arith.constant 1 : index
// expected-error @+1 {{'tile.launch' op expects parent op 'tile.kernel'}}
tile.launch grid(%c) threads(128) as (%a) {
}
