// RUN: not kbench-opt %s --kbench-gpu-to-ptx=ptx-file=%t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=ptx-file=%t.missing-dir/k.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: %if ptxas %{ not kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx=cubin-file=%t.missing-dir/k.cubin -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t.cuda && mkdir -p %t.cuda
// RUN: %if ptxas %{ not kbench-opt %s --tile-to-gpu --kbench-gpu-to-ptx="cuda-path=%t.cuda cubin-file=%t.cubin" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIBDEVICE %}

// NOPTX: error: no PTX in the module: expected a gpu.binary with an object of format `assembly` (gpu-module-to-binary{format=isa})
// WRITE: error: cannot write the PTX to '{{.*}}missing-dir/k.ptx'
// PTXAS: error: ptxas -arch=sm_90a failed with exit code {{[0-9]+}}:
// PTXAS-NEXT: ptxas fatal
// A toolkit without libdevice: the math call stays an unresolved extern.
// LIBDEVICE: error: LibDevice path: {{.*}}nvvm/libdevice/libdevice.10.bc does not exist or is not a file.
// LIBDEVICE: error: ptxas -arch=sm_90a failed with exit code {{[0-9]+}}:
// LIBDEVICE-NEXT: ptxas fatal   : Unresolved extern function '__nv_expf'
// LIBDEVICE-NEXT: (libdevice was not linked into the PTX: point CUDA_HOME or the cuda-path option at a CUDA toolkit)
tile.kernel @exp(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 128} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<128xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<128xf32>
  %n = tile.grid %Yv : !tile.part<128xf32>
  %x = tile.load %Xv[%n] : !tile.part<128xf32, pad = zero> -> tensor<128xf32>
  %e = math.exp %x : tensor<128xf32>
  tile.store %e, %Yv[%n] : tensor<128xf32>, !tile.part<128xf32>
  tile.return
}
