# -*- Python -*-
# lit configuration for kbench: FileCheck tests over kbench-opt and the
# kbench tools, mirroring lib/.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "kbench"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".json"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kbench_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%kbench_src_root", config.kbench_src_root))
config.substitutions.append(("%kbench_obj_root", config.kbench_obj_root))
config.substitutions.append(("%mlir_binary_dir", config.mlir_binary_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.kbench_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["kbench-opt", "kbench-run", "kbench-knob-table", "FileCheck", "not", "count"],
                                   tool_dirs)
llvm_config.with_environment("PATH", config.kbench_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ptxas (CUDA toolkit) gates the steps that assemble PTX: `%if ptxas %{...%}`.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
