// RUN: tile-opt %s --convert-tile-to-llvm | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-gpu{arch=sm_80})' | FileCheck %s --check-prefix=GPU

// `tile.use_swizzle 4` stays in the tile IR of the tile-gpu phase; the
// lowering replaces the block indices by the rasterized ones (see
// docs/codegen.md): panel k = by / 4 of h = min(4, gy - 4k) rows, the
// block's number o = (by - 4k) * gx + bx in it, x = o / h (gx - 1 - o / h
// in odd panels), y = 4k + o % h. Every later use of bx and by sees them.

// GPU: tile.launch grid(%{{.*}}, %{{.*}}) threads(32) as ({{.*}}) {
// GPU-NEXT: tile.use_swizzle 4

// CHECK-LABEL: llvm.func @raster(
// CHECK: %[[BX32:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 2147483647> : i32
// CHECK: %[[BX:.*]] = arith.index_castui %[[BX32]] : i32 to index
// CHECK: %[[BY32:.*]] = nvvm.read.ptx.sreg.ctaid.y range <i32, 0, 65535> : i32
// CHECK: %[[BY:.*]] = arith.index_castui %[[BY32]] : i32 to index
// CHECK: %[[GX32:.*]] = nvvm.read.ptx.sreg.nctaid.x range <i32, 1, -2147483648> : i32
// CHECK: %[[GX:.*]] = arith.index_castui %[[GX32]] : i32 to index
// CHECK: %[[GY32:.*]] = nvvm.read.ptx.sreg.nctaid.y range <i32, 1, 65536> : i32
// CHECK: %[[GY:.*]] = arith.index_castui %[[GY32]] : i32 to index
// CHECK: %[[P:.*]] = arith.constant 4 : index
// CHECK: %[[K:.*]] = arith.divui %[[BY]], %[[P]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[K]], %[[P]] : index
// CHECK: %[[ROWIN:.*]] = arith.subi %[[BY]], %[[FIRST]] : index
// CHECK: %[[SKIP:.*]] = arith.muli %[[ROWIN]], %[[GX]] : index
// CHECK: %[[O:.*]] = arith.addi %[[SKIP]], %[[BX]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
// CHECK: %[[H:.*]] = arith.minui %[[LEFT]], %[[P]] : index
// CHECK: %[[COL:.*]] = arith.divui %[[O]], %[[H]] : index
// CHECK: %[[DONE:.*]] = arith.muli %[[COL]], %[[H]] : index
// CHECK: %[[REM:.*]] = arith.subi %[[O]], %[[DONE]] : index
// CHECK: %[[Y:.*]] = arith.addi %[[FIRST]], %[[REM]] : index
// CHECK: %[[PARITY:.*]] = arith.andi %[[K]], %{{.*}} : index
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[PARITY]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.subi %[[GX]], %{{.*}} : index
// CHECK: %[[REV:.*]] = arith.subi %[[LAST]], %[[COL]] : index
// CHECK: %[[X:.*]] = arith.select %[[ODD]], %[[REV]], %[[COL]] : index
// CHECK: arith.index_cast %[[X]] : index to i32
// CHECK: arith.cmpi ult, %[[Y]], %{{.*}} : index
// CHECK: arith.cmpi ult, %[[X]], %{{.*}} : index
// CHECK: scf.if
// CHECK: arith.muli %[[Y]], %{{.*}} : index
tile.kernel @raster(%C: !tile.buffer<?x?xi32, global> {tile.name = "C", tile.shape = ["M", "N"]},
                    %M: index {tile.name = "M"}, %N: index {tile.name = "N"}) {
  tile.launch grid(%N, %M) threads(32) as (%bx, %by) {
    tile.use_swizzle 4
    %v = arith.index_cast %bx : index to i32
    tile.store %v, %C[%by, %bx] : !tile.buffer<?x?xi32, global>
  }
}
