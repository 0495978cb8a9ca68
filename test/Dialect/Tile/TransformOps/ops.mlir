// RUN: kbench-opt %s | kbench-opt | FileCheck %s

// The syntax of every transform.tile.* op, with integer and param values,
// survives printing and parsing.

// CHECK-LABEL: transform.named_sequence @syntax
// CHECK: transform.tile.set_params %[[K:.*]] {BM = 128, BN = %{{.*}}, "B K" = 8} : !transform.any_op
// CHECK: transform.tile.set_num_warps %[[K]] 8 : !transform.any_op
// CHECK: transform.tile.set_num_warps %[[K]] %{{.*}} : !transform.any_op
// CHECK: transform.tile.vector_width %[[K]] 4 : !transform.any_op
// CHECK: transform.tile.vector_width %[[K]] %{{.*}} : !transform.any_op
// CHECK: transform.tile.raster %[[K]] group_m 8 : !transform.any_op
// CHECK: transform.tile.raster %[[K]] group_m %{{.*}} : !transform.any_op
// CHECK: transform.tile.pipeline %[[K]] stages 2 : !transform.any_op
// CHECK: transform.tile.pipeline %[[K]] stages %{{.*}} : !transform.any_op
// CHECK: transform.tile.single_pass %[[K]] 1 : !transform.any_op
// CHECK: transform.tile.single_pass %[[K]] %{{.*}} : !transform.any_op
// CHECK: transform.tile.split_reduction %[[K]] chunk 8 : !transform.any_op
// CHECK: transform.tile.split_reduction %[[K]] chunk %{{.*}} : !transform.any_op
// CHECK: transform.tile.rows_per_cta %[[K]] rows 2 : !transform.any_op
// CHECK: transform.tile.rows_per_cta %[[K]] rows %{{.*}} : !transform.any_op
module attributes {transform.with_named_sequence} {
  transform.named_sequence @syntax(%k: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.tile.set_params %k {BM = 128, BN = %p, "B K" = 8} : !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_num_warps %k %p : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.vector_width %k %p : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    transform.tile.raster %k group_m %p : !transform.any_op
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.tile.pipeline %k stages %p : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.tile.single_pass %k %p : !transform.any_op
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.tile.split_reduction %k chunk %p : !transform.any_op
    transform.tile.rows_per_cta %k rows 2 : !transform.any_op
    transform.tile.rows_per_cta %k rows %p : !transform.any_op
    transform.yield
  }
}
