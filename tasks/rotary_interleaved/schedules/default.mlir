// Default schedule of rotary_interleaved: rotary's default (1 token by 8
// heads of one whole head, up to 128 columns, per CTA of 4 warps, 8 elements
// per thread). vector_width 4 makes the load of x and the store of y
// 16-byte accesses; the partners (c + 1, c - 1) and the angle columns
// (c / 2) are not consecutive indices, so those gathers take one element
// per access.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BT = 1, BNH = 8, BH = 128} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
