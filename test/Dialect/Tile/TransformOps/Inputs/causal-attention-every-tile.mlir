// Causal attention with its masks on every key tile (tasks/causal_attention_bf16
// before its masks were moved into a boundary branch by hand): the input of
// mask-boundary-tiles-tasks.test, which rewrites it with
// transform.tile.mask_boundary_tiles and proves the result.
tile.kernel @causal_attention(%Q: memref<?x?x?xbf16> {tile.dims = ["BH", "S", "D"]},
                       %K: memref<?x?x?xbf16> {tile.dims = ["BH", "S", "D"]},
                       %V: memref<?x?x?xbf16> {tile.dims = ["BH", "S", "D"]},
                       %O: memref<?x?x?xbf16> {tile.dims = ["BH", "S", "D"]})
    params {BM = 64, BN = 64, BD = 128, num_warps = 4}
    requires ["D <= BD"] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Qv = tile.partition %Q tile [1, BM, BD] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x128xbf16, pad = zero>
  %Kv = tile.partition %K tile [1, BN, BD] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x128xbf16, pad = zero>
  %Vv = tile.partition %V tile [1, BN, BD] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x128xbf16, pad = zero>
  %Ov = tile.partition %O tile [1, BM, BD] : memref<?x?x?xbf16> -> !tile.part<1x64x128xbf16>
  %m, %b = tile.grid %Ov dims [1, 0] : !tile.part<1x64x128xbf16>
  %nk = tile.num_tiles %Kv[1] : !tile.part<1x64x128xbf16, pad = zero>
  %s = tile.extent %Kv[1] : !tile.part<1x64x128xbf16, pad = zero>
  %d = tile.extent %Qv[2] : !tile.part<1x64x128xbf16, pad = zero>
  %bn = tile.tile_size %Kv[1] : !tile.part<1x64x128xbf16, pad = zero>
  %di = arith.index_cast %d : index to i32
  %df = arith.sitofp %di : i32 to f32
  %rs = math.rsqrt %df : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %rs2 = arith.mulf %rs, %log2e : f32
  %scale = tile.splat %rs2 : f32 -> tensor<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %ninf2d = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %ciota = tile.iota dim 1 : tensor<64x64xindex>
  %bm = tile.tile_size %Qv[1] : !tile.part<1x64x128xbf16, pad = zero>
  %m0 = arith.muli %m, %bm : index
  %rbase = tile.splat %m0 : index -> tensor<64x64xindex>
  %riota = tile.iota dim 0 : tensor<64x64xindex>
  %rows = arith.addi %rbase, %riota : tensor<64x64xindex>
  %s2d = tile.splat %s : index -> tensor<64x64xindex>
  %q3 = tile.load %Qv[%b, %m, %c0] : !tile.part<1x64x128xbf16, pad = zero> -> tensor<1x64x128xbf16>
  %q = tile.squeeze %q3 dim 0 : tensor<1x64x128xbf16> -> tensor<64x128xbf16>
  %m1 = arith.addi %m, %c1 : index
  %hi = arith.muli %m1, %bm : index
  %diag = arith.ceildivsi %hi, %bn : index
  %nkc = arith.minsi %nk, %diag : index
  %o, %mx, %l = scf.for %j = %c0 to %nkc step %c1 iter_args(%oi = %zo, %mi = %ninf, %li = %zero)
      -> (tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>) {
    %k3 = tile.load %Kv[%b, %j, %c0] : !tile.part<1x64x128xbf16, pad = zero> -> tensor<1x64x128xbf16>
    %k = tile.squeeze %k3 dim 0 : tensor<1x64x128xbf16> -> tensor<64x128xbf16>
    %v3 = tile.load %Vv[%b, %j, %c0] : !tile.part<1x64x128xbf16, pad = zero> -> tensor<1x64x128xbf16>
    %v = tile.squeeze %v3 dim 0 : tensor<1x64x128xbf16> -> tensor<64x128xbf16>
    %sc = tile.mma %q, %k, %zs {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x64xf32>
    %ss = arith.mulf %sc, %scale : tensor<64x64xf32>
    %j0 = arith.muli %j, %bn : index
    %cbase = tile.splat %j0 : index -> tensor<64x64xindex>
    %cols = arith.addi %cbase, %ciota : tensor<64x64xindex>
    %inb = arith.cmpi ult, %cols, %s2d : tensor<64x64xindex>
    %causal = arith.cmpi ule, %cols, %rows : tensor<64x64xindex>
    %sin = arith.select %inb, %ss, %ninf2d : tensor<64x64xi1>, tensor<64x64xf32>
    %sm = arith.select %causal, %sin, %ninf2d : tensor<64x64xi1>, tensor<64x64xf32>
    %tmax = tile.reduce max %sm dim 1 : tensor<64x64xf32> -> tensor<64xf32>
    %mn = arith.maximumf %mi, %tmax : tensor<64xf32>
    %mb = tile.broadcast %mn dims [1] : tensor<64xf32> -> tensor<64x64xf32>
    %dd = arith.subf %sm, %mb : tensor<64x64xf32>
    %pe = math.exp2 %dd : tensor<64x64xf32>
    %pin = arith.select %inb, %pe, %zs : tensor<64x64xi1>, tensor<64x64xf32>
    %p = arith.select %causal, %pin, %zs : tensor<64x64xi1>, tensor<64x64xf32>
    %ts = tile.reduce add %p dim 1 : tensor<64x64xf32> -> tensor<64xf32>
    %shift = arith.subf %mi, %mn : tensor<64xf32>
    %alpha = math.exp2 %shift : tensor<64xf32>
    %ls = arith.mulf %li, %alpha : tensor<64xf32>
    %ln = arith.addf %ls, %ts : tensor<64xf32>
    %ab = tile.broadcast %alpha dims [1] : tensor<64xf32> -> tensor<64x128xf32>
    %os = arith.mulf %oi, %ab : tensor<64x128xf32>
    %pb = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xbf16>
    %on = tile.mma %pb, %v, %os : tensor<64x64xbf16>, tensor<64x128xbf16> -> tensor<64x128xf32>
    scf.yield %on, %mn, %ln : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>
  }
  %lb = tile.broadcast %l dims [1] : tensor<64xf32> -> tensor<64x128xf32>
  %y = arith.divf %o, %lb : tensor<64x128xf32>
  %yb = arith.truncf %y : tensor<64x128xf32> to tensor<64x128xbf16>
  %y3 = tile.expand_dims %yb dim 0 : tensor<64x128xbf16> -> tensor<1x64x128xbf16>
  tile.store %y3, %Ov[%b, %m, %c0] : tensor<1x64x128xbf16>, !tile.part<1x64x128xbf16>
  tile.return
}

func.func @main(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>, %o: memref<?x?x?xbf16>) {
  tile.launch @causal_attention(%q, %k, %v, %o) : (memref<?x?x?xbf16>, memref<?x?x?xbf16>, memref<?x?x?xbf16>, memref<?x?x?xbf16>) -> ()
  return
}
