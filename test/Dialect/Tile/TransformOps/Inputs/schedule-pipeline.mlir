// Sets the pipeline depth of every K loop; pipeline.test rewrites `stages 2`
// and the target to try the other forms.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.pipeline %loop stages 2 : !transform.any_op
    transform.yield
  }
}
