#!/usr/bin/env bash
#===- retile.sh - Verify a task under one of its schedules with one knob moved ===#
# Usage: retile.sh TASK_DIR OUT_DIR 'OLD' 'NEW' [SCHEDULE]
# Copies TASK_DIR/schedules/SCHEDULE (default.mlir unless given, e.g. a
# dispatch variant's short_rows.mlir) with the text OLD (e.g. "BN = 1024")
# replaced by NEW ("BN = 512"), refuses when OLD is not there (so a changed
# schedule cannot make the test vacuous), and runs kbench verify with it.
# Prints "<task>: NEW" ("<task> SCHEDULE: NEW" for another schedule) and then
# kbench verify's diagnostics and verdict.
set -u
task=$1 out=$2 old=$3 new=$4 from=${5:-default.mlir}
name=$(basename "$task")
label=$name stem=$name
[ "$from" = default.mlir ] || { label="$name $from"; stem="$name-${from%.mlir}"; }
schedule="$out/$stem-${new//[^A-Za-z0-9]/_}.mlir"
mkdir -p "$out"
if ! grep -qF -- "$old" "$task/schedules/$from"; then
  echo "$label: the schedule does not say '$old'"
  exit 1
fi
sed "s/$old/$new/" "$task/schedules/$from" > "$schedule"
echo "$label: $new"
kbench verify "$task" --schedule "$schedule" 2>&1
