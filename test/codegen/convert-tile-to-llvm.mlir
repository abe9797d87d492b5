// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-llvm,cse,canonicalize)' --split-input-file | FileCheck %s

// The kernel ABI: tensors as global pointers, dims as i64, then scalars. A
// contiguous loop gets a fast path with one 16-byte vector per access when
// the whole vector is in bounds, and guarded scalar accesses otherwise.

// CHECK-LABEL: llvm.func @vector_add(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[B:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64},
// CHECK-SAME: %[[C:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[N:[^:]*]]: i64)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// CHECK-DAG: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-DAG: %[[TID32:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 256> : i32
// CHECK-DAG: %[[TID:.*]] = arith.index_castui %[[TID32]] : i32 to index
// CHECK-DAG: %[[BID32:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 2147483647> : i32
// CHECK-DAG: %[[BID:.*]] = arith.index_castui %[[BID32]] : i32 to index
// Thread t handles i = t * 4 + v (one step: 256 threads x 4 = 1024), the
// element bx * 1024 + i.
// CHECK: %[[I0:.*]] = arith.muli %[[TID]], %c4 : index
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[I0]], %c1 : index
// CHECK-NEXT: %[[I2:.*]] = arith.addi %[[I0]], %c2 : index
// CHECK-NEXT: %[[I3:.*]] = arith.addi %[[I0]], %c3 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[BID]], %c1024 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %[[BASE]], %[[I0]] : index
// CHECK-NEXT: %[[IN0:.*]] = arith.cmpi ult, %[[FIRST]], %[[N_IDX]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[FIRST]], %c3 : index
// CHECK-NEXT: %[[IN3:.*]] = arith.cmpi ult, %[[LAST]], %[[N_IDX]] : index
// CHECK-NEXT: %[[FAST:.*]] = arith.andi %[[IN0]], %[[IN3]] : i1
// CHECK-NEXT: scf.if %[[FAST]] {
// CHECK-NEXT:   %[[OFF:.*]] = arith.index_cast %[[FIRST]] : index to i64
// CHECK-NEXT:   %[[PA:.*]] = llvm.getelementptr %[[A]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   %[[VA:.*]] = llvm.load %[[PA]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[VA]]
// CHECK-NEXT:   %[[PB:.*]] = llvm.getelementptr %[[B]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   %[[VB:.*]] = llvm.load %[[PB]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[VB]]
// CHECK-COUNT-4: arith.addf
// CHECK-COUNT-4: llvm.insertelement
// CHECK-NEXT:   %[[PC:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   llvm.store %{{.*}}, %[[PC]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// The guarded path: lane v reads element bx * 1024 + i + v if it is below N.
// CHECK: } else {
// CHECK-NEXT:   %[[E1:.*]] = arith.addi %[[BASE]], %[[I1]] : index
// CHECK-NEXT:   %[[E2:.*]] = arith.addi %[[BASE]], %[[I2]] : index
// CHECK-NEXT:   %[[E3:.*]] = arith.addi %[[BASE]], %[[I3]] : index
// CHECK-NEXT:   scf.if %[[IN0]] -> (f32) {
// CHECK-NEXT:     %[[OFF0:.*]] = arith.index_cast %[[FIRST]] : index to i64
// CHECK-NEXT:     %[[P0:.*]] = llvm.getelementptr %[[A]][%[[OFF0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     llvm.load %[[P0]] : !llvm.ptr<1> -> f32
// CHECK:   } else {
// CHECK-NEXT:     scf.yield %{{.*}} : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[IN1:.*]] = arith.cmpi ult, %[[E1]], %[[N_IDX]] : index
// CHECK-NEXT:   scf.if %[[IN1]] -> (f32) {
// CHECK-NEXT:     %[[OFF1:.*]] = arith.index_cast %[[E1]] : index to i64
// CHECK-NEXT:     %[[P1:.*]] = llvm.getelementptr %[[A]][%[[OFF1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     llvm.load %[[P1]] : !llvm.ptr<1> -> f32
// CHECK-COUNT-6: scf.if %{{.*}} -> (f32) {
// CHECK:   scf.if %[[IN0]] {
// CHECK-NEXT:     %[[OFF0_C:.*]] = arith.index_cast %[[FIRST]] : index to i64
// CHECK-NEXT:     %[[P0_C:.*]] = llvm.getelementptr %[[C]][%[[OFF0_C]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[P0_C]] : f32, !llvm.ptr<1>
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
tile.kernel @vector_add(%A: !tile.buffer<?xf32, global> {tile.name = "A", tile.shape = ["N"]},
                        %B: !tile.buffer<?xf32, global> {tile.name = "B", tile.shape = ["N"]},
                        %C: !tile.buffer<?xf32, global> {tile.name = "C", tile.shape = ["N"]},
                        %N: index {tile.name = "N"}) {
  %c1024 = arith.constant 1024 : index
  %g = arith.ceildivsi %N, %c1024 : index
  tile.launch grid(%g) threads(256) as (%bx) {
    tile.parallel (%i) in [1024] attributes {layout = #tile.flat<vec = 4>} {
      %base = arith.muli %bx, %c1024 : index
      %idx = arith.addi %base, %i : index
      %a = tile.load %A[%idx] : !tile.buffer<?xf32, global>
      %b = tile.load %B[%idx] : !tile.buffer<?xf32, global>
      %c = arith.addf %a, %b : f32
      tile.store %c, %C[%idx] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// A fragment becomes a per-thread array: 30 x 64 elements over 128 threads
// taking 4 each is 4 steps (the last one partial) of 4 elements. Its
// accesses use constant indices, so SROA keeps it in registers. Rows of a
// tensor with a symbolic innermost extent start at a vector boundary only if
// that extent is a multiple of the vector: the fast path checks it.

// CHECK-LABEL: llvm.func @fragment_epilogue(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{[^:]*}}: i64, %[[N:[^:]*]]: i64, %[[S:[^:]*]]: f32)
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[FRAG:.*]] = llvm.alloca %{{.*}} x !llvm.array<16 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: nvvm.read.ptx.sreg.ctaid.y range <i32, 0, 65535> : i32
// CHECK-COUNT-16: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
// CHECK: %[[ROWS:.*]] = arith.remui %[[N_IDX]], %c4 : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[ROWS]], %c0 : index
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %[[ALIGNED]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   llvm.load %[[FRAG]] : !llvm.ptr -> f32
// CHECK:   %[[P:.*]] = llvm.getelementptr %{{.*}} : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:   llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:   llvm.store %{{.*}}, %[[P]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// The partial last step (elements 1536..1919) is guarded.
// CHECK: %[[IN_RANGE:.*]] = arith.cmpi ult, %{{.*}}, %c1920 : index
// CHECK: scf.if %[[IN_RANGE]] {
// CHECK:   llvm.getelementptr %[[FRAG]][12] : (!llvm.ptr) -> !llvm.ptr, f32
tile.kernel @fragment_epilogue(%C: !tile.buffer<?x?xf32, global> {tile.name = "C", tile.shape = ["M", "N"]},
                               %M: index {tile.name = "M"}, %N: index {tile.name = "N"},
                               %s: f32 {tile.name = "s"}) {
  %c30 = arith.constant 30 : index
  %c64 = arith.constant 64 : index
  %gx = arith.ceildivsi %N, %c64 : index
  %gy = arith.ceildivsi %M, %c30 : index
  tile.launch grid(%gx, %gy) threads(128) as (%bx, %by) {
    %F = tile.alloc_fragment : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>
    tile.fill %F, %s : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>, f32
    %r = arith.muli %by, %c30 : index
    %c = arith.muli %bx, %c64 : index
    tile.parallel (%i, %j) in [30, 64] attributes {layout = #tile.flat<vec = 4>} {
      %row = arith.addi %r, %i : index
      %col = arith.addi %c, %j : index
      %f = tile.load %F[%i, %j] : !tile.buffer<30x64xf32, fragment, #tile.flat<vec = 4>>
      %x = tile.load %C[%row, %col] : !tile.buffer<?x?xf32, global>
      %y = arith.addf %x, %f : f32
      tile.store %y, %C[%row, %col] : !tile.buffer<?x?xf32, global>
    }
  }
}

// -----

// Row-major addresses of rank-2 and rank-3 tensors whose dims differ (X is
// M x N, Y is N x M, Z is P x M x N) and the thread index of every step: 6 x 32
// elements over 32 threads taking 4 each are 2 steps, the second one partial.
// Thread t's first element in step s is flat = s * 128 + t * 4, at row
// flat / 32 and column flat % 32 of the tile. X and Z are accessed with one
// vector per thread in the fast path and per lane in the guarded path; the
// transposed Y always per lane.

// CHECK-LABEL: llvm.func @rank2_rank3(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[Y:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64},
// CHECK-SAME: %[[Z:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[M:[^:]*]]: i64, %[[N:[^:]*]]: i64, %[[P:[^:]*]]: i64)
// CHECK-DAG: %[[M_IDX:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK-DAG: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-DAG: %[[P_IDX:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK-DAG: %[[TID32:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK-DAG: %[[TID:.*]] = arith.index_castui %[[TID32]] : i32 to index
// CHECK-DAG: %[[BX32:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK-DAG: %[[BX:.*]] = arith.index_castui %[[BX32]] : i32 to index
// CHECK-DAG: %[[BY32:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK-DAG: %[[BY:.*]] = arith.index_castui %[[BY32]] : i32 to index
// CHECK-DAG: %[[BZ32:.*]] = nvvm.read.ptx.sreg.ctaid.z
// CHECK-DAG: %[[BZ:.*]] = arith.index_castui %[[BZ32]] : i32 to index
// CHECK-DAG: %[[R:.*]] = arith.muli %[[BY]], %c6 : index
// CHECK-DAG: %[[C:.*]] = arith.muli %[[BX]], %c32 : index
// Step 0.
// CHECK: %[[FLAT0:.*]] = arith.muli %[[TID]], %c4 : index
// CHECK-NEXT: %[[J0:.*]] = arith.remui %[[FLAT0]], %c32 : index
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[FLAT0]], %c32 : index
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J0]], %c1 : index
// CHECK-NEXT: %[[J2:.*]] = arith.addi %[[J0]], %c2 : index
// CHECK-NEXT: %[[J3:.*]] = arith.addi %[[J0]], %c3 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[R]], %[[I]] : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[C]], %[[J0]] : index
// CHECK-NEXT: %[[ROW_IN:.*]] = arith.cmpi ult, %[[ROW]], %[[M_IDX]] : index
// CHECK-NEXT: %[[COL_IN:.*]] = arith.cmpi ult, %[[COL]], %[[N_IDX]] : index
// CHECK-NEXT: %[[X_IN:.*]] = arith.andi %[[ROW_IN]], %[[COL_IN]] : i1
// CHECK: %[[Z_IN:.*]] = arith.cmpi ult, %[[BZ]], %[[P_IDX]] : index
// CHECK: scf.if %{{[^ ]*}} {
// CHECK-NEXT: %[[COL1:.*]] = arith.addi %[[C]], %[[J1]] : index
// CHECK-NEXT: %[[COL2:.*]] = arith.addi %[[C]], %[[J2]] : index
// CHECK-NEXT: %[[COL3:.*]] = arith.addi %[[C]], %[[J3]] : index
// X[row, col..col+3] is the vector at row * N + col.
// CHECK-NEXT: %[[XR:.*]] = arith.muli %[[ROW]], %[[N_IDX]] : index
// CHECK-NEXT: %[[XO:.*]] = arith.addi %[[XR]], %[[COL]] : index
// CHECK-NEXT: %[[XO64:.*]] = arith.index_cast %[[XO]] : index to i64
// CHECK-NEXT: %[[XP:.*]] = llvm.getelementptr %[[X]][%[[XO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[XV:.*]] = llvm.load %[[XP]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NEXT: %[[X0:.*]] = llvm.extractelement %[[XV]]
// Z[bz, row, col..col+3] is the vector at (bz * M + row) * N + col.
// CHECK: %[[ZP:.*]] = arith.muli %[[BZ]], %[[M_IDX]] : index
// CHECK-NEXT: %[[ZR:.*]] = arith.addi %[[ZP]], %[[ROW]] : index
// CHECK-NEXT: %[[ZRN:.*]] = arith.muli %[[ZR]], %[[N_IDX]] : index
// CHECK-NEXT: %[[ZO:.*]] = arith.addi %[[ZRN]], %[[COL]] : index
// CHECK-NEXT: %[[ZO64:.*]] = arith.index_cast %[[ZO]] : index to i64
// CHECK-NEXT: %[[ZPTR:.*]] = llvm.getelementptr %[[Z]][%[[ZO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %{{.*}}, %[[ZPTR]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// Y[col + v, row] is the element at (col + v) * M + row.
// CHECK-NEXT: scf.if %[[X_IN]] {
// CHECK-NEXT: %[[YR:.*]] = arith.muli %[[COL]], %[[M_IDX]] : index
// CHECK-NEXT: %[[YO:.*]] = arith.addi %[[YR]], %[[ROW]] : index
// CHECK-NEXT: %[[YO64:.*]] = arith.index_cast %[[YO]] : index to i64
// CHECK-NEXT: %[[YP:.*]] = llvm.getelementptr %[[Y]][%[[YO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[X0]], %[[YP]] : f32, !llvm.ptr<1>
// CHECK: %[[Y1_IN:.*]] = arith.cmpi ult, %[[COL1]], %[[N_IDX]] : index
// CHECK: scf.if %{{[^ ]*}} {
// CHECK-NEXT: %[[YR1:.*]] = arith.muli %[[COL1]], %[[M_IDX]] : index
// CHECK-NEXT: %[[YO1:.*]] = arith.addi %[[YR1]], %[[ROW]] : index
// The guarded path: lane v reads X[row, col + v] at row * N + col + v.
// CHECK: } else {
// CHECK-NEXT: %[[GCOL1:.*]] = arith.addi %[[C]], %[[J1]] : index
// CHECK: scf.if %[[X_IN]] -> (f32) {
// CHECK-NEXT: %[[GXR:.*]] = arith.muli %[[ROW]], %[[N_IDX]] : index
// CHECK-NEXT: %[[GXO:.*]] = arith.addi %[[GXR]], %[[COL]] : index
// CHECK-NEXT: %[[GXO64:.*]] = arith.index_cast %[[GXO]] : index to i64
// CHECK-NEXT: %[[GXP:.*]] = llvm.getelementptr %[[X]][%[[GXO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load %[[GXP]] : !llvm.ptr<1> -> f32
// CHECK: %[[GCOL1_IN:.*]] = arith.cmpi ult, %[[GCOL1]], %[[N_IDX]] : index
// CHECK-NEXT: %[[GX1_IN:.*]] = arith.andi %[[ROW_IN]], %[[GCOL1_IN]] : i1
// CHECK-NEXT: scf.if %[[GX1_IN]] -> (f32) {
// CHECK-NEXT: %[[GXR1:.*]] = arith.muli %[[ROW]], %[[N_IDX]] : index
// CHECK-NEXT: %[[GXO1:.*]] = arith.addi %[[GXR1]], %[[GCOL1]] : index
// Lane 0 of Z and of Y.
// CHECK: scf.if %{{[^ ]*}} {
// CHECK-NEXT: %[[GZP:.*]] = arith.muli %[[BZ]], %[[M_IDX]] : index
// CHECK-NEXT: %[[GZR:.*]] = arith.addi %[[GZP]], %[[ROW]] : index
// CHECK-NEXT: %[[GZRN:.*]] = arith.muli %[[GZR]], %[[N_IDX]] : index
// CHECK-NEXT: %[[GZO:.*]] = arith.addi %[[GZRN]], %[[COL]] : index
// CHECK-NEXT: %[[GZO64:.*]] = arith.index_cast %[[GZO]] : index to i64
// CHECK-NEXT: llvm.getelementptr %[[Z]][%[[GZO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: scf.if %[[X_IN]] {
// CHECK-NEXT: %[[GYR:.*]] = arith.muli %[[COL]], %[[M_IDX]] : index
// CHECK-NEXT: %[[GYO:.*]] = arith.addi %[[GYR]], %[[ROW]] : index
// CHECK-NEXT: %[[GYO64:.*]] = arith.index_cast %[[GYO]] : index to i64
// CHECK-NEXT: llvm.getelementptr %[[Y]][%[[GYO64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// Step 1, partial: 128 elements further, only where flat < 192.
// CHECK: %[[FLAT1:.*]] = arith.addi %[[FLAT0]], %c128 : index
// CHECK-NEXT: %[[TAIL:.*]] = arith.cmpi ult, %[[FLAT1]], %c192 : index
// CHECK-NEXT: scf.if %[[TAIL]] {
// CHECK-NEXT: %[[J0_1:.*]] = arith.remui %[[FLAT1]], %c32 : index
// CHECK-NEXT: %[[I_1:.*]] = arith.divui %[[FLAT1]], %c32 : index
// CHECK: %[[ROW_1:.*]] = arith.addi %[[R]], %[[I_1]] : index
// CHECK-NEXT: %[[COL_1:.*]] = arith.addi %[[C]], %[[J0_1]] : index
// CHECK: scf.if %{{[^ ]*}} {
// CHECK: %[[XR_1:.*]] = arith.muli %[[ROW_1]], %[[N_IDX]] : index
// CHECK-NEXT: %[[XO_1:.*]] = arith.addi %[[XR_1]], %[[COL_1]] : index
// CHECK-NEXT: %[[XO64_1:.*]] = arith.index_cast %[[XO_1]] : index to i64
// CHECK-NEXT: llvm.getelementptr %[[X]][%[[XO64_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
tile.kernel @rank2_rank3(%X: !tile.buffer<?x?xf32, global> {tile.name = "X", tile.shape = ["M", "N"]},
                         %Y: !tile.buffer<?x?xf32, global> {tile.name = "Y", tile.shape = ["N", "M"]},
                         %Z: !tile.buffer<?x?x?xf32, global> {tile.name = "Z", tile.shape = ["P", "M", "N"]},
                         %M: index {tile.name = "M"}, %N: index {tile.name = "N"}, %P: index {tile.name = "P"}) {
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %gx = arith.ceildivsi %N, %c32 : index
  %gy = arith.ceildivsi %M, %c6 : index
  tile.launch grid(%gx, %gy, %P) threads(32) as (%bx, %by, %bz) {
    %r = arith.muli %by, %c6 : index
    %c = arith.muli %bx, %c32 : index
    tile.parallel (%i, %j) in [6, 32] attributes {layout = #tile.flat<vec = 4>} {
      %row = arith.addi %r, %i : index
      %col = arith.addi %c, %j : index
      %x = tile.load %X[%row, %col] : !tile.buffer<?x?xf32, global>
      tile.store %x, %Z[%bz, %row, %col] : !tile.buffer<?x?x?xf32, global>
      tile.store %x, %Y[%col, %row] : !tile.buffer<?x?xf32, global>
    }
  }
}

// -----

// Indices of per-thread buffers. A local array is row-major. A fragment
// accessed over 65 steps is not unrolled: in step s thread t handles the
// elements s * 128 + t * 4 + v and keeps them at s * 4 + v of its array.

// CHECK-LABEL: llvm.func @private_indices(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[N:[^:]*]]: i64)
// CHECK: %[[N_IDX:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT: %[[L:.*]] = llvm.alloca %{{.*}} x !llvm.array<15 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[F:.*]] = llvm.alloca %{{.*}} x !llvm.array<260 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[TID32:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK-NEXT: %[[TID:.*]] = arith.index_castui %[[TID32]] : i32 to index
// L[k, l] (3 x 5) is element k * 5 + l.
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:   scf.for %[[LL:.*]] = %c0 to %c5 step %c1 {
// CHECK:          %[[LR:.*]] = arith.muli %[[K]], %c5 : index
// CHECK-NEXT:     %[[LO:.*]] = arith.addi %[[LR]], %[[LL]] : index
// CHECK-NEXT:     %[[LO64:.*]] = arith.index_cast %[[LO]] : index to i64
// CHECK-NEXT:     %[[LP:.*]] = llvm.getelementptr %[[L]][%[[LO64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[LP]] : f32, !llvm.ptr
// CHECK:      scf.for %[[S:.*]] = %c0 to %c65 step %c1 {
// CHECK-NEXT:   %[[SB:.*]] = arith.muli %[[S]], %c128 : index
// CHECK-NEXT:   %[[TB:.*]] = arith.muli %[[TID]], %c4 : index
// CHECK-NEXT:   %[[I0:.*]] = arith.addi %[[SB]], %[[TB]] : index
// CHECK-NEXT:   %[[F0:.*]] = arith.muli %[[S]], %c4 : index
// CHECK-NEXT:   %[[I1:.*]] = arith.addi %[[I0]], %c1 : index
// CHECK-NEXT:   %[[F1:.*]] = arith.addi %[[F0]], %c1 : index
// CHECK-NEXT:   %[[I2:.*]] = arith.addi %[[I0]], %c2 : index
// CHECK-NEXT:   %[[F2:.*]] = arith.addi %[[F0]], %c2 : index
// CHECK-NEXT:   %[[I3:.*]] = arith.addi %[[I0]], %c3 : index
// CHECK-NEXT:   %[[F3:.*]] = arith.addi %[[F0]], %c3 : index
// CHECK:        scf.if %{{[^ ]*}} {
// CHECK-NEXT:     %[[XO:.*]] = arith.index_cast %[[I0]] : index to i64
// CHECK-NEXT:     %[[XP:.*]] = llvm.getelementptr %[[X]][%[[XO]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:     llvm.load %[[XP]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4:  llvm.extractelement
// CHECK-NEXT:     %[[FO0:.*]] = arith.index_cast %[[F0]] : index to i64
// CHECK-NEXT:     %[[FP0:.*]] = llvm.getelementptr %[[F]][%[[FO0]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[FP0]] : f32, !llvm.ptr
// CHECK-NEXT:     %[[FO1:.*]] = arith.index_cast %[[F1]] : index to i64
// CHECK-NEXT:     %[[FP1:.*]] = llvm.getelementptr %[[F]][%[[FO1]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[FP1]] : f32, !llvm.ptr
// CHECK-NEXT:     %[[FO2:.*]] = arith.index_cast %[[F2]] : index to i64
// CHECK-NEXT:     %[[FP2:.*]] = llvm.getelementptr %[[F]][%[[FO2]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[FP2]] : f32, !llvm.ptr
// CHECK-NEXT:     %[[FO3:.*]] = arith.index_cast %[[F3]] : index to i64
// CHECK-NEXT:     %[[FP3:.*]] = llvm.getelementptr %[[F]][%[[FO3]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:     llvm.store %{{.*}}, %[[FP3]] : f32, !llvm.ptr
// CHECK-NEXT:   } else {
// CHECK:          %[[IN1:.*]] = arith.cmpi ult, %[[I1]], %[[N_IDX]] : index
// CHECK-NEXT:     scf.if %[[IN1]] -> (f32) {
// CHECK-NEXT:       %[[XO1:.*]] = arith.index_cast %[[I1]] : index to i64
// CHECK-NEXT:       llvm.getelementptr %[[X]][%[[XO1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:          %[[GFO3:.*]] = arith.index_cast %[[F3]] : index to i64
// CHECK-NEXT:     llvm.getelementptr %[[F]][%[[GFO3]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// The second loop reads the same fragment elements, and L[2, 4] at 2 * 5 + 4.
// CHECK:      scf.for %[[S2:.*]] = %c0 to %c65 step %c1 {
// CHECK:        %[[G0:.*]] = arith.muli %[[S2]], %c4 : index
// CHECK:        scf.if %{{[^ ]*}} {
// CHECK-NEXT:     %[[GO0:.*]] = arith.index_cast %[[G0]] : index to i64
// CHECK-NEXT:     llvm.getelementptr %[[F]][%[[GO0]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:          llvm.getelementptr %[[L]][14] : (!llvm.ptr) -> !llvm.ptr, f32
tile.kernel @private_indices(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["N"]},
                             %N: index {tile.name = "N"}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(32) as (%bx) {
    %L = tile.alloc_local : !tile.buffer<3x5xf32, local>
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    tile.serial %k to %c3 {
      tile.serial %l to %c5 {
        %x = tile.load %X[%l] : !tile.buffer<?xf32, global>
        tile.store %x, %L[%k, %l] : !tile.buffer<3x5xf32, local>
      }
    }
    %F = tile.alloc_fragment : !tile.buffer<8320xf32, fragment, #tile.flat<vec = 4>>
    tile.parallel (%i) in [8320] attributes {layout = #tile.flat<vec = 4>} {
      %x = tile.load %X[%i] : !tile.buffer<?xf32, global>
      tile.store %x, %F[%i] : !tile.buffer<8320xf32, fragment, #tile.flat<vec = 4>>
    }
    tile.parallel (%i) in [8320] attributes {layout = #tile.flat<vec = 4>} {
      %f = tile.load %F[%i] : !tile.buffer<8320xf32, fragment, #tile.flat<vec = 4>>
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %l = tile.load %L[%c2, %c4] : !tile.buffer<3x5xf32, local>
      %y = arith.addf %f, %l : f32
      tile.store %y, %X[%i] : !tile.buffer<?xf32, global>
    }
  }
}

// -----

// Per-thread variables are allocas; serial loops become scf.for, unrolled
// loops are expanded, conditionals become scf.if, and a bool scalar is
// passed as a byte.

// CHECK-LABEL: llvm.func @uniform_code(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1> {llvm.align = 16 : i64}, %[[K:[^:]*]]: i64, %[[FLAG:[^:]*]]: i8)
// CHECK: %[[FLAG_I1:.*]] = arith.cmpi ne, %[[FLAG]], %c0_i8 : i8
// CHECK: %[[VAR:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x f32> {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[VAR]] : f32, !llvm.ptr
// CHECK: scf.for %[[KK:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK:   arith.cmpi ult, %[[KK]], %{{.*}} : index
// CHECK:   llvm.load %[[VAR]] : !llvm.ptr -> f32
// CHECK:   llvm.store %{{.*}}, %[[VAR]] : f32, !llvm.ptr
// CHECK: }
// CHECK-COUNT-2: arith.mulf
// CHECK: scf.if %[[FLAG_I1]] {
// CHECK:   llvm.store %{{.*}}, %[[X]] : f32, !llvm.ptr<1>
tile.kernel @uniform_code(%X: !tile.buffer<?xf32, global> {tile.name = "X", tile.shape = ["K"]},
                          %K: index {tile.name = "K"}, %flag: i1 {tile.name = "flag"}) {
  %c1 = arith.constant 1 : index
  tile.launch grid(%c1) threads(32) as (%bx) {
    %v = tile.alloc_var : !tile.buffer<f32, local>
    %zero = arith.constant 0.0 : f32
    tile.store %zero, %v[] : !tile.buffer<f32, local>
    tile.serial %k to %K {
      %x = tile.load %X[%k] : !tile.buffer<?xf32, global>
      %o = tile.load %v[] : !tile.buffer<f32, local>
      %s = arith.addf %o, %x : f32
      tile.store %s, %v[] : !tile.buffer<f32, local>
    }
    %c2 = arith.constant 2 : index
    %total = tile.load %v[] : !tile.buffer<f32, local>
    tile.unroll %u to %c2 {
      %t = tile.load %v[] : !tile.buffer<f32, local>
      %d = arith.mulf %t, %total : f32
      tile.store %d, %v[] : !tile.buffer<f32, local>
    }
    tile.if %flag {
      %r = tile.load %v[] : !tile.buffer<f32, local>
      %c0 = arith.constant 0 : index
      tile.store %r, %X[%c0] : !tile.buffer<?xf32, global>
    }
  }
}
