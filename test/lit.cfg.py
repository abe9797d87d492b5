# -*- Python -*-
# lit configuration of the tilec test suite.

import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "TILEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".yaml"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "Inputs", "corpus", "fuzz", "gpu", "package", "runtime",
                   "unit", "utils"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%specs", os.path.join(config.tilec_src_root, "specs")))
# Runs a kernel with tile-host-run and compares with its Python reference.
config.substitutions.append(("%host-check", "%s %s" % (
    sys.executable,
    os.path.join(config.test_source_root, "codegen", "host", "Inputs",
                 "host-check.py"))))

config.substitutions.append(("%python", sys.executable))
# Writes row inputs with -inf masks for tile-host-run --input.
config.substitutions.append(("%masked-rows", "%s %s" % (
    sys.executable,
    os.path.join(config.test_source_root, "codegen", "host", "Inputs",
                 "masked-rows.py"))))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
for tools_dir in config.tilec_tools_dirs:
    llvm_config.with_environment("PATH", tools_dir, append_path=True)

# ptxas for the codegen tests: CUDA_HOME, the toolkit CMake found, or
# /usr/local/cuda.
ptxas = ""
cuda_root = ""
cuda_bins = [d for d in (os.path.join(os.environ.get("CUDA_HOME", ""), "bin"),
                         config.cuda_bin_dir, "/usr/local/cuda/bin") if d]
for cuda_bin in cuda_bins:
    if os.path.exists(os.path.join(cuda_bin, "ptxas")):
        llvm_config.with_environment("PATH", cuda_bin, append_path=True)
        config.available_features.add("ptxas")
        ptxas = os.path.join(cuda_bin, "ptxas")
        cuda_root = os.path.dirname(os.path.normpath(cuda_bin))
        if os.path.exists(os.path.join(cuda_bin, "fatbinary")):
            config.available_features.add("fatbinary")
        break
# The default toolkit root, which tilec searches last.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("cuda-default-root")

utils = os.path.join(config.test_source_root, "utils")
# Assembles every PTX module a test produces (files, or stdin copied to
# stdout). Without ptxas it fails: PTX that is never assembled is not checked.
config.substitutions.append(("%ptxas-check", "%s %s %s" % (
    sys.executable, os.path.join(utils, "ptxas-check.py"), ptxas or '""')))
# The ptxas the codegen tests use.
config.substitutions.append(("%ptxas-path", ptxas or '""'))
# `%fake-cuda-toolkit DIR...`: toolkit folders whose ptxas and fatbinary log
# their use to DIR/used.log and run the real ones.
config.substitutions.append(("%fake-cuda-toolkit", "%s %s %s" % (
    sys.executable, os.path.join(utils, "fake-cuda-toolkit.py"),
    cuda_root or '""')))
# `%expect-exit STATUS COMMAND...`: COMMAND must exit with exactly STATUS,
# not killed by a signal (lit's `not` accepts any non-zero status).
config.substitutions.append(("%expect-exit", "%s %s" % (
    sys.executable, os.path.join(utils, "expect-exit.py"))))

# The compile cache is off, and pointed away from the user's, so that no test
# depends on what an earlier run left in it; the tests of the cache
# (test/compiler/cache) turn it on with
# `env -u TILEC_DISABLE_CACHE TILEC_CACHE_DIR=%t/cache tilec ...`.
config.environment["TILEC_DISABLE_CACHE"] = "1"
config.environment["TILEC_CACHE_DIR"] = os.path.join(
    config.test_exec_root, "compile-cache-unused")
config.environment.pop("TILEC_CACHE_MAX_SIZE", None)
# `%cache-tool COMMAND CACHE ...`: lists, measures, ages and damages the
# entries of a compile cache (test/compiler/cache/Inputs/cache-tool.py).
config.substitutions.append(("%cache-tool", "%s %s" % (
    sys.executable,
    os.path.join(config.test_source_root, "compiler", "cache", "Inputs",
                 "cache-tool.py"))))

tools = ["tile-opt", "tilec", "tilec-tune", "tile-host-run"]
llvm_config.add_tool_substitutions(tools, config.tilec_tools_dirs)
