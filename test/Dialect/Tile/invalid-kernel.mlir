// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.kernel' op argument 0 has no 'tile.name' attribute}}
tile.kernel @k(%M: index) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{duplicate argument name 'M'}}
tile.kernel @k(%A: !tile.buffer<?xf16, global> {tile.name = "M", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{tensor argument 'A' must be a global buffer}}
tile.kernel @k(%A: !tile.buffer<4xf16, shared> {tile.name = "A", tile.shape = [4]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{tensor argument 'A' needs a 'tile.shape' array with one entry per dim}}
tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{tensor argument 'A' dim 1 is named 'K' but its type has extent 8}}
tile.kernel @k(%A: !tile.buffer<?x8xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{tensor argument 'A' dim 1 must be a dim name or the type's extent}}
tile.kernel @k(%A: !tile.buffer<?x8xf16, global> {tile.name = "A", tile.shape = ["M", 4]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{dim argument 'K' is out of order: dims follow the tensors, in order of first appearance in their shapes}}
tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %K: index {tile.name = "K"}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{symbolic dim 'K' has no dim argument}}
tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{argument 'A' is out of order: tensors, then dims, then scalars}}
tile.kernel @k(%s: f32 {tile.name = "s"}, %A: !tile.buffer<?xf16, global> {tile.name = "A", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {

  }
}

// -----

// expected-error @+1 {{must contain exactly one tile.launch, found 0}}
tile.kernel @k() {
  tile.return
}

// -----

// expected-error @+1 {{must not return values}}
"tile.kernel"() <{function_type = () -> (f32), sym_name = "k"}> ({
  "tile.return"() : () -> ()
}) : () -> ()
