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
llvm_config.add_tool_substitutions(["kbench-opt", "kbench-run", "kbench-knob-table", "kbench-fuzz-replay", "FileCheck", "not", "count"],
                                   tool_dirs)
llvm_config.with_environment("PATH", config.kbench_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ptxas (CUDA toolkit) gates the steps that assemble PTX: `%if ptxas %{...%}`.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# A kbench-run built against a LibTorch with the AOTInductor package loader
# (torch >= 2.6) measures the torch.compile baseline instead of reporting it
# unavailable (docs/runner.md, "Baselines"): `aoti-loader`.
import subprocess
try:
    version = subprocess.run([os.path.join(config.kbench_tools_dir, "kbench-run"), "--version"],
                             capture_output=True, text=True, timeout=60).stdout
    if ", with the AOTInductor package loader" in version:
        config.available_features.add("aoti-loader")
except OSError:
    pass

# vega-lite's vl2svg from npm (package.json; scripts/setup.sh runs npm ci):
# the results charts are rendered in the tests: `vega`.
if os.access(os.path.join(config.kbench_src_root, "node_modules", ".bin", "vl2svg"), os.X_OK):
    config.available_features.add("vega")

# A python3 that imports torch (Debian's python3-torch is enough) runs the
# CPU half of scripts/gpu-aoti-package.py's tests: `python-torch`,
# %torch_python.
for python in [shutil.which("python3"), "/usr/bin/python3"]:
    if python and subprocess.run([python, "-c", "import torch"], capture_output=True,
                                 timeout=120).returncode == 0:
        config.available_features.add("python-torch")
        config.substitutions.append(("%torch_python", python))
        break

# The official MCP TypeScript SDK from npm (package.json; scripts/setup.sh runs
# npm ci) drives `kbench mcp` in test/Mcp: `mcp-sdk`.
if shutil.which("node") and os.path.isdir(os.path.join(config.kbench_src_root, "node_modules", "@modelcontextprotocol", "sdk")):
    config.available_features.add("mcp-sdk")

# scripts/sanitize-tests.sh runs the suite against an ASan/UBSan build with
# --param sanitizer=asan: `asan`. A test that caps virtual memory (ulimit -v)
# cannot run there, as ASan reserves terabytes of shadow address space.
if lit_config.params.get("sanitizer") == "asan":
    config.available_features.add("asan")

# Debian's postgresql server (scripts/setup.sh installs it): the archive and
# queue tests also run against a throwaway PostgreSQL server started by
# scripts/pg-cluster.sh: `postgres`, %pg_cluster. As root the server runs as
# the package's `postgres` user.
import glob
import pwd
def _postgres_user_ok():
    if os.getuid() != 0:
        return True
    try:
        pwd.getpwnam("postgres")
        return True
    except KeyError:
        return False
if glob.glob("/usr/lib/postgresql/*/bin/initdb") and _postgres_user_ok():
    config.available_features.add("postgres")
config.substitutions.append(("%pg_cluster", os.path.join(config.kbench_src_root, "scripts", "pg-cluster.sh")))
llvm_config.add_tool_substitutions(["kbench-worker"], tool_dirs)
