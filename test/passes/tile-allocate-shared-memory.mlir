// RUN: tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-allocate-shared-memory))' --split-input-file | FileCheck %s

// Tiles live at the same time get disjoint bytes, the largest first: tiles
// whose size is a multiple of 1024 bytes start at a multiple of 1024, the
// others at a multiple of 128. The total is the end of the last tile.
// CHECK-LABEL: tile.kernel @alignment
// CHECK-SAME: attributes {tile.shared_memory_bytes = 10755 : i64}
// CHECK: tile.alloc_shared {offset = 10240 : i64} : !tile.buffer<10x10xf32, shared>
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<128x32xf16, shared>
// CHECK: tile.alloc_shared {offset = 10752 : i64} : !tile.buffer<3xi1, shared>
// CHECK: tile.alloc_shared {offset = 8192 : i64} : !tile.buffer<32x32xf16, shared>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @alignment() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %b = tile.alloc_shared : !tile.buffer<10x10xf32, shared>
    %a = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %d = tile.alloc_shared : !tile.buffer<3xi1, shared>
    %c = tile.alloc_shared : !tile.buffer<32x32xf16, shared>
    tile.parallel (%i) in [3] {
      %x = tile.load %a[%i, %i] : !tile.buffer<128x32xf16, shared>
      tile.store %x, %c[%i, %i] : !tile.buffer<32x32xf16, shared>
      %y = tile.load %b[%i, %i] : !tile.buffer<10x10xf32, shared>
      %z = tile.load %d[%i] : !tile.buffer<3xi1, shared>
    }
  }
}
}

// -----

// A tile is live from the first to the last op of the launch body that uses
// it: the tile of the second loop reuses the bytes of the first's.
// CHECK-LABEL: tile.kernel @reuse
// CHECK-SAME: attributes {tile.shared_memory_bytes = 8192 : i64}
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<64x32xf32, shared>
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<32x64xf16, shared>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @reuse() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %first = tile.alloc_shared : !tile.buffer<64x32xf32, shared>
    %second = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
    %zero = arith.constant 0.0 : f32
    tile.fill %first, %zero : !tile.buffer<64x32xf32, shared>, f32
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %first[%i, %j] : !tile.buffer<64x32xf32, shared>
    }
    tile.clear %second : !tile.buffer<32x64xf16, shared>
    tile.parallel (%i, %j) in [32, 64] {
      %x = tile.load %second[%i, %j] : !tile.buffer<32x64xf16, shared>
    }
  }
}
}

// -----

// A use inside a loop keeps the tile live for the whole loop: the two tiles
// of the loop's body overlap although the body uses them one after the
// other; the tile used after the loop reuses the first bytes.
// CHECK-LABEL: tile.kernel @loop
// CHECK-SAME: attributes {tile.shared_memory_bytes = 2048 : i64}
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<256xf32, shared>
// CHECK: tile.alloc_shared {offset = 1024 : i64} : !tile.buffer<256xf32, shared>
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<512xf32, shared>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @loop() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<256xf32, shared>
    %b = tile.alloc_shared : !tile.buffer<256xf32, shared>
    %after = tile.alloc_shared : !tile.buffer<512xf32, shared>
    tile.serial %k to %c1 {
      tile.clear %a : !tile.buffer<256xf32, shared>
      tile.clear %b : !tile.buffer<256xf32, shared>
    }
    tile.clear %after : !tile.buffer<512xf32, shared>
  }
}
}

// -----

// First fit: a tile goes in the lowest gap that no tile live at the same
// time occupies. %late is dead when %small is used, so %small takes the
// bytes after %wide.
// CHECK-LABEL: tile.kernel @first_fit
// CHECK-SAME: attributes {tile.shared_memory_bytes = 8192 : i64}
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared {offset = 4096 : i64} : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared {offset = 4096 : i64} : !tile.buffer<512xf32, shared>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @first_fit() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %wide = tile.alloc_shared : !tile.buffer<1024xf32, shared>
    %late = tile.alloc_shared : !tile.buffer<1024xf32, shared>
    %small = tile.alloc_shared : !tile.buffer<512xf32, shared>
    tile.clear %wide : !tile.buffer<1024xf32, shared>
    tile.clear %late : !tile.buffer<1024xf32, shared>
    tile.clear %small : !tile.buffer<512xf32, shared>
    tile.clear %wide : !tile.buffer<1024xf32, shared>
  }
}
}

// -----

// A tile without uses still gets bytes; a kernel without shared tiles
// records 0.
// CHECK-LABEL: tile.kernel @unused
// CHECK-SAME: attributes {tile.shared_memory_bytes = 32 : i64}
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<8xf32, shared>
// CHECK-LABEL: tile.kernel @none
// CHECK-SAME: attributes {tile.shared_memory_bytes = 0 : i64}
module attributes {tile.target = #tile.target<"sm_80", ptx = 80>} {
tile.kernel @unused() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<8xf32, shared>
  }
}
tile.kernel @none() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(32) as (%bx) {
  }
}
}

// -----

// A pipelined kernel's tiles, multiplied by stages before this pass, are
// allocated like any other: 3 x 128 x 32 f16 and 3 x 32 x 128 f16.
// CHECK-LABEL: tile.kernel @staged
// CHECK-SAME: attributes {tile.shared_memory_bytes = 49152 : i64}
// CHECK: tile.alloc_shared {offset = 0 : i64} : !tile.buffer<3x128x32xf16, shared>
// CHECK: tile.alloc_shared {offset = 24576 : i64} : !tile.buffer<3x32x128xf16, shared>
module attributes {tile.target = #tile.target<"sm_90a", ptx = 83>} {
tile.kernel @staged() {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !tile.buffer<3x128x32xf16, shared>
    %B_s = tile.alloc_shared : !tile.buffer<3x32x128xf16, shared>
    tile.parallel (%s, %i, %j) in [3, 32, 32] {
      %a = tile.load %A_s[%s, %i, %j] : !tile.buffer<3x128x32xf16, shared>
      tile.store %a, %B_s[%s, %j, %i] : !tile.buffer<3x32x128xf16, shared>
    }
  }
}
}
