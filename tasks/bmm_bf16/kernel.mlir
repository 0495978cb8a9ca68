// Batched matmul, bf16: c[b] = a[b] @ w[b] for every batch b, a [B, M, K],
// w [B, K, N] (torch.bmm's layout, both row-major), c [B, M, N] f32. One
// CTA takes a BM x BN tile of one batch's product and walks K in tiles of
// BK. The views tile [1, BM, BK] and [1, BK, BN]: one batch per tile,
// squeezed to the rank-2 tiles tile.mma takes, and the result expanded
// back for the store. w's tile is KxN (no transpose_b): the tensor-core
// lowerings read it as rows of N. The grid lists the output's dims in
// reverse (dims [2, 1, 0]): grid x, the order blocks start in, walks N, then
// M, then the batch, so the CTAs in flight share one batch's operands in
// L2 (with the batch on x, each CTA in flight was another batch's and L2
// hit 26% of the reads).
tile.kernel @bmm_bf16(%A: memref<?x?x?xbf16> {tile.dims = ["B", "M", "K"]},
                      %W: memref<?x?x?xbf16> {tile.dims = ["B", "K", "N"]},
                      %C: memref<?x?x?xf32> {tile.dims = ["B", "M", "N"]})
    params {BM = 64, BN = 64, BK = 32, num_warps = 4} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Av = tile.partition %A tile [1, BM, BK] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x64x32xbf16, pad = zero>
  %Wv = tile.partition %W tile [1, BK, BN] pad(zero) : memref<?x?x?xbf16> -> !tile.part<1x32x64xbf16, pad = zero>
  %Cv = tile.partition %C tile [1, BM, BN] : memref<?x?x?xf32> -> !tile.part<1x64x64xf32>
  %n, %m, %b = tile.grid %Cv dims [2, 1, 0] : !tile.part<1x64x64xf32>
  %nk = tile.num_tiles %Av[2] : !tile.part<1x64x32xbf16, pad = zero>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %z) -> (tensor<64x64xf32>) {
    %x3 = tile.load %Av[%b, %m, %k] : !tile.part<1x64x32xbf16, pad = zero> -> tensor<1x64x32xbf16>
    %x = tile.squeeze %x3 dim 0 : tensor<1x64x32xbf16> -> tensor<64x32xbf16>
    %w3 = tile.load %Wv[%b, %k, %n] : !tile.part<1x32x64xbf16, pad = zero> -> tensor<1x32x64xbf16>
    %w = tile.squeeze %w3 dim 0 : tensor<1x32x64xbf16> -> tensor<32x64xbf16>
    %r = tile.mma %x, %w, %a : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %c3 = tile.expand_dims %acc dim 0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  tile.store %c3, %Cv[%b, %m, %n] : tensor<1x64x64xf32>, !tile.part<1x64x64xf32>
  tile.return
}

func.func @main(%a: memref<?x?x?xbf16>, %w: memref<?x?x?xbf16>,
                %c: memref<?x?x?xf32>) {
  tile.launch @bmm_bf16(%a, %w, %c)
      : (memref<?x?x?xbf16>, memref<?x?x?xbf16>, memref<?x?x?xf32>) -> ()
  return
}
