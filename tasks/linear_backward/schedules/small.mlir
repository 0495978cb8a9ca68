// The small variant of linear_backward's dispatch (schedules/dispatch.json:
// N * K <= 2^20 and M * K <= 2^22): both matmuls on 64x64 CTA tiles of 4
// warps (a 4x8 register micro-tile per thread) instead of the default's 128x128
// on 8 warps. At 3000 x 1000 x 777 dw [N, K] has 8 x 7 = 56 tiles of 128x128,
// under half of the GPU's 132 SMs, each summing 3000 products per element;
// 64x64 tiles give it 208 CTAs (dx 564). On the H200 machine (2026-12-06):
// 438.8 against 654.5 us for the default there (torch.compile 267.3 us; dw on
// 64x64 tiles alone: 509.2), but 7613.5 against 6798.0 us at 4096^3, where
// 128x128 tiles already fill the GPU.
//
//   kbench compile tasks/linear_backward --schedule tasks/linear_backward/schedules/small.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %dx 4 : !transform.any_op
    transform.tile.set_params %dx {BM = 64, BN = 64, BK = 8} : !transform.any_op
    transform.tile.raster %dx group_m 8 : !transform.any_op
    transform.tile.vector_width %dx 4 : !transform.any_op
    %dw = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_dw"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %dw 4 : !transform.any_op
    transform.tile.set_params %dw {BM = 64, BN = 64, BK = 8} : !transform.any_op
    transform.tile.raster %dw group_m 8 : !transform.any_op
    transform.tile.vector_width %dw 4 : !transform.any_op
    %db = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_db"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %db 4 : !transform.any_op
    transform.tile.set_params %db {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %db 4 : !transform.any_op
    transform.yield
  }
}
