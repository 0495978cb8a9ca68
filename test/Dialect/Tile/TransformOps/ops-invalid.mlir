// RUN: kbench-opt %s --split-input-file -verify-diagnostics

// Static errors in a schedule, reported when it is parsed.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @dup(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.set_params' op sets "BM" twice}}
    transform.tile.set_params %k {BM = 64, BM = 128} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @none(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.set_params' op sets no params; write {BM = 128, ...}}}
    transform.tile.set_params %k {} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @count(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.set_params' op has 1 names but 2 values}}
    "transform.tile.set_params"(%k) {names = ["BM"], static_values = array<i64: 1, 2>} : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @marks(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.set_params' op marks 1 values as params but has 0 operands}}
    "transform.tile.set_params"(%k) {names = ["BM"], static_values = array<i64: -9223372036854775808>} : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @novalue(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.set_num_warps' op needs exactly one value: an integer or a !transform.param<i64>}}
    "transform.tile.set_num_warps"(%k) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @twovalues(%k: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    // expected-error @below {{'transform.tile.vector_width' op needs exactly one value: an integer or a !transform.param<i64>}}
    "transform.tile.vector_width"(%k, %p) {static_value = 4 : i64} : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @i32param(%k: !transform.any_op {transform.readonly}) {
    // expected-note @below {{prior use here}}
    %p = transform.param.constant 4 : i32 -> !transform.param<i32>
    // expected-error @below {{use of value '%p' expects different type than prior uses: '!transform.param<i64>' vs '!transform.param<i32>'}}
    transform.tile.raster %k group_m %p : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @novalue(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.single_pass' op needs exactly one value: an integer or a !transform.param<i64>}}
    "transform.tile.single_pass"(%k) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @novalue(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.split_reduction' op needs exactly one value: an integer or a !transform.param<i64>}}
    "transform.tile.split_reduction"(%k) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @novalue(%k: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.tile.rows_per_cta' op needs exactly one value: an integer or a !transform.param<i64>}}
    "transform.tile.rows_per_cta"(%k) : (!transform.any_op) -> ()
    transform.yield
  }
}
