#!/usr/bin/env bash
#===- retile.sh - Verify a task under its default schedule with one knob moved ===#
# Usage: retile.sh TASK_DIR OUT_DIR 'OLD' 'NEW'
# Copies TASK_DIR/schedules/default.mlir with the text OLD (e.g. "BN = 1024")
# replaced by NEW ("BN = 512"), refuses when OLD is not there (so a changed
# default cannot make the test vacuous), and runs kbench verify with it.
# Prints "<task>: NEW" and then kbench verify's diagnostics and verdict.
set -u
task=$1 out=$2 old=$3 new=$4
name=$(basename "$task")
schedule="$out/$name-${new//[^A-Za-z0-9]/_}.mlir"
mkdir -p "$out"
if ! grep -qF -- "$old" "$task/schedules/default.mlir"; then
  echo "$name: the default schedule does not say '$old'"
  exit 1
fi
sed "s/$old/$new/" "$task/schedules/default.mlir" > "$schedule"
echo "$name: $new"
kbench verify "$task" --schedule "$schedule" 2>&1
