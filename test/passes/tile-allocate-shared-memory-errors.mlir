// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-allocate-shared-memory))' --split-input-file --verify-diagnostics

// Over the target's limit: the error is at the kernel, with a note at every
// tile giving its bytes.
module attributes {tile.target = #tile.target<"sm_86", ptx = 80>} {
// expected-error @below {{kernel 'gemm' needs 245760 bytes of shared memory, but sm_86 allows at most 101376 bytes per block}}
tile.kernel @gemm() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    // expected-note @below {{shared tile of 98304 bytes ('!tile.buffer<3x128x64xf32, shared>')}}
    %A_s = tile.alloc_shared : !tile.buffer<3x128x64xf32, shared>
    // expected-note @below {{shared tile of 98304 bytes ('!tile.buffer<3x64x128xf32, shared>')}}
    %B_s = tile.alloc_shared : !tile.buffer<3x64x128xf32, shared>
    // expected-note @below {{shared tile of 49152 bytes ('!tile.buffer<3x64x64xf32, shared>')}}
    %C_s = tile.alloc_shared : !tile.buffer<3x64x64xf32, shared>
    tile.parallel (%s, %i, %j) in [3, 64, 64] {
      %a = tile.load %A_s[%s, %i, %j] : !tile.buffer<3x128x64xf32, shared>
      %b = tile.load %B_s[%s, %i, %j] : !tile.buffer<3x64x128xf32, shared>
      %c = arith.addf %a, %b : f32
      tile.store %c, %C_s[%s, %i, %j] : !tile.buffer<3x64x64xf32, shared>
    }
  }
}
}

// -----

// Alignment counts: 99 KiB and one byte more do not fit sm_86's 99 KiB.
module attributes {tile.target = #tile.target<"sm_86", ptx = 80>} {
// expected-error @below {{kernel 'padded' needs 101377 bytes of shared memory, but sm_86 allows at most 101376 bytes per block}}
tile.kernel @padded() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    // expected-note @below {{shared tile of 101376 bytes ('!tile.buffer<99x1024xi8, shared>')}}
    %a = tile.alloc_shared : !tile.buffer<99x1024xi8, shared>
    // expected-note @below {{shared tile of 1 byte ('!tile.buffer<1xi8, shared>')}}
    %b = tile.alloc_shared : !tile.buffer<1xi8, shared>
    tile.parallel (%i) in [1] {
      %x = tile.load %a[%i, %i] : !tile.buffer<99x1024xi8, shared>
      tile.store %x, %b[%i] : !tile.buffer<1xi8, shared>
    }
  }
}
}

// -----

// The pass needs the module's target.
// expected-error @below {{'tile.kernel' op is not in a module with a 'tile.target' attribute, which tile-allocate-shared-memory needs}}
tile.kernel @untargeted() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128xf32, shared>
  }
}
