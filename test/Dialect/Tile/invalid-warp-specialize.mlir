// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_shared : !tile.buffer<4xi32, shared>
    // expected-error @+1 {{'tile.mbarrier_init' op mbarriers must be a rank-1 shared tile of i64, got '!tile.buffer<4xi32, shared>'}}
    tile.mbarrier_init %bars count 1 : !tile.buffer<4xi32, shared>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    // expected-error @+1 {{'tile.mbarrier_init' op arrival count must be in [1, 2^20 - 1], got 0}}
    tile.mbarrier_init %bars count 0 : !tile.buffer<4xi64, shared>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %c1 = arith.constant 1 : index
    tile.serial %i to %c1 {
      // expected-error @+1 {{'tile.mbarrier_init' op must be at the top level of a launch body}}
      tile.mbarrier_init %bars count 1 : !tile.buffer<4xi64, shared>
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_fragment : !tile.buffer<4xi64, fragment>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.mbarrier_wait' op mbarriers must be a rank-1 shared tile of i64}}
    tile.mbarrier_wait %bars[%c0], %c0 : !tile.buffer<4xi64, fragment>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_shared : !tile.buffer<2x4xi64, shared>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.mbarrier_arrive' op mbarriers must be a rank-1 shared tile of i64}}
    tile.mbarrier_arrive %bars[%c0] : !tile.buffer<2x4xi64, shared>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %s = tile.alloc_shared : !tile.buffer<4xf16, shared>
    // expected-error @+1 {{'tile.tma_ready' op operands must be global tensors, got '!tile.buffer<4xf16, shared>'}}
    %ok = tile.tma_ready %s : !tile.buffer<4xf16, shared>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op producer threads must be a positive multiple of 128 (whole warpgroups), got 32}}
    tile.warp_specialize producer_threads 32 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(1024) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op a block of 1024 + 128 threads exceeds 1024 threads}}
    tile.warp_specialize producer_threads 128 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op must end the launch body}}
    tile.warp_specialize producer_threads 128 {
    } consumer {
    }
    %c0 = arith.constant 0 : index
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.copy' op with a barrier (a TMA copy) must be in the producer region of a 'tile.warp_specialize'}}
    tile.copy %A[%c0, %c0], %a[] barrier %bars[%c0] : !tile.buffer<4xi64, shared> : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %c0 = arith.constant 0 : index
    tile.warp_specialize producer_threads 128 {
      // expected-error @+1 {{'tile.copy' op with a barrier (a TMA copy) must copy a global tensor region into a whole shared tile}}
      tile.copy %A[%c0, %c0], %a[] barrier %bars[%c0] : !tile.buffer<4xi64, shared> : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, fragment>
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.tile_loop' op expects parent op to be one of 'tile.warp_specialize, tile.if'}}
    tile.tile_loop %i {
    }
  }
}

// -----

tile.kernel @k(%C: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]}, %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %s = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.copy' op with a staging tile (a TMA store) must be in the consumer region of a 'tile.warp_specialize'}}
    tile.copy %c[], %C[%c0, %c0] staged %s : !tile.buffer<64x128xf16, shared> : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @k(%C: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]}, %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %c = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
    %s = tile.alloc_shared : !tile.buffer<48x128xf16, shared>
    tile.warp_specialize producer_threads 128 {
    } consumer {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'tile.copy' op staging tile must be a rank-2 shared tile of the target's element type holding a band of the fragment's rows (all its columns), got '!tile.buffer<48x128xf16, shared>'}}
      tile.copy %c[], %C[%c0, %c0] staged %s : !tile.buffer<48x128xf16, shared> : !tile.buffer<128x128xf32, fragment>, !tile.buffer<?x?xf16, global>
    }
  }
}

// -----

tile.kernel @k(%C: !tile.buffer<?x?xf16, global> {tile.name = "C", tile.shape = ["M", "N"]}, %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<128x128xf16, shared>
    %s = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
    tile.warp_specialize producer_threads 128 {
    } consumer {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'tile.copy' op with a staging tile (a TMA store) must copy a whole rank-2 fragment into a rank-2 global tensor region}}
      tile.copy %a[], %C[%c0, %c0] staged %s : !tile.buffer<64x128xf16, shared> : !tile.buffer<128x128xf16, shared>, !tile.buffer<?x?xf16, global>
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.tma_store_wait' op must be in the consumer region of a 'tile.warp_specialize'}}
    tile.tma_store_wait
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(512) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op a block of 1024 + 128 threads exceeds 1024 threads}}
    tile.warp_specialize producer_threads 128 consumer_groups 2 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op needs at least one consumer group, got 0}}
    tile.warp_specialize producer_threads 128 consumer_groups 0 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.warp_specialize producer_threads 128 persistent {
    } consumer {
      // expected-error @+1 {{'tile.tile_loop' op with a step needs its first tile}}
      tile.tile_loop %t attributes {step = 2 : i64} {
      }
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.warp_specialize producer_threads 128 persistent {
    } consumer {
      %g = tile.consumer_group
      // expected-error @+1 {{'tile.tile_loop' op step must be positive, got 0}}
      tile.tile_loop %t from %g step 0 {
      }
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.warp_specialize producer_threads 128 {
      // expected-error @+1 {{'tile.tile_count' op must be in the roles of a persistent 'tile.warp_specialize'}}
      %n = tile.tile_count
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    tile.warp_specialize producer_threads 128 {
      // expected-error @+1 {{'tile.consumer_group' op must be in the consumer region of a 'tile.warp_specialize'}}
      %g = tile.consumer_group
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'tile.named_barrier' op threads must be whole warps, 32 to 1024, got 48}}
    tile.named_barrier %c1, 48
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op clusters must have 1, 2, 4 or 8 blocks, got 3}}
    tile.warp_specialize producer_threads 128 persistent cluster 3 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.warp_specialize' op with clusters must be persistent}}
    tile.warp_specialize producer_threads 128 cluster 2 {
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %c0 = arith.constant 0 : index
    tile.warp_specialize producer_threads 128 persistent {
      // expected-error @+1 {{'tile.copy' op with multicast must be in a 'tile.warp_specialize' with clusters of more than one block}}
      tile.copy %A[%c0, %c0], %a[] barrier %bars[%c0] : !tile.buffer<4xi64, shared> {multicast} : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
    } consumer {
    }
  }
}

// -----

tile.kernel @k(%A: !tile.buffer<?x?xf16, global> {tile.name = "A", tile.shape = ["M", "K"]}, %M: index {tile.name = "M"}, %K: index {tile.name = "K"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.copy' op with multicast needs a barrier (a TMA copy)}}
    tile.copy %A[%c0, %c0], %a[] {multicast} : !tile.buffer<?x?xf16, global>, !tile.buffer<64x64xf16, shared>
  }
}

// -----

tile.kernel @k(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["M"]}, %M: index {tile.name = "M"}) {
  tile.launch grid(%M) threads(128) as (%bx) {
    %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %c0 = arith.constant 0 : index
    tile.warp_specialize producer_threads 128 persistent {
    } consumer {
      // expected-error @+1 {{'tile.mbarrier_arrive' op on the cluster's mbarriers must be in a 'tile.warp_specialize' with clusters of more than one block}}
      tile.mbarrier_arrive %bars[%c0] {cluster} : !tile.buffer<4xi64, shared>
    }
  }
}
