#!/usr/bin/env python3
"""The installed package, used from outside as an application would.

    consumer_test.py --build BUILD [--runtime-build RTBUILD]
                     [--kernels-out DIR] [--work DIR]

1. `cmake --install BUILD` into a temporary prefix; the tools, the libraries,
   the headers, the CMake package, tilert.pc and the Python module are there,
   and the installed tilec runs.
2. This folder's CMake project (CMakeLists.txt), copied out with
   specs/vector_add.tile, is configured against the prefix alone and built:
   tilec_add_kernels() writes the cubins, the fatbin and the JSONs at build
   time, not at configure time; a second build runs nothing; touching the
   .tile, or the tilec executable, recompiles; the project's CTest tests
   run (and skip without a GPU, saying so).
3. A C program built with `pkg-config --cflags --libs tilert` loads a
   kernel; the installed Python module loads one with the installed library.
4. tilec_add_kernels() refuses bad input with a message naming the problem.
5. With --runtime-build (a -DTILEC_BUILD_COMPILER=OFF build): its install has
   no compiler, says so when tilec_add_kernels() or the `compiler` component
   is asked for, and the project builds and runs against it with the kernels
   of step 2 (as on the GPU machine).
With --kernels-out, step 2's kernels (k/ and kfat/) are copied there, for
tools/gpu/run_gpu_suite.sh to build and run the project on the GPU machine.
Exits 0 when every check passed, 1 on the first failure.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPEC = os.path.join(ROOT, "specs", "vector_add.tile")
PROJECT_FILES = ["CMakeLists.txt", "RunVectorAdd.cpp", "RunEmbedded.cpp",
                 "DeviceMemory.cpp", "DeviceMemory.h", "kernels.yaml"]


class Failure(Exception):
    """A check that did not hold."""


def run(cmd, cwd=None, env=None, expect_failure=False):
    """Runs `cmd`, echoing it; returns its combined output. Raises Failure
    when its status is not what is expected."""
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    failed = proc.returncode != 0
    if failed != expect_failure:
        print(proc.stdout)
        raise Failure("%s exited with %d" % (cmd[0], proc.returncode))
    return proc.stdout


def check(condition, message):
    if not condition:
        raise Failure(message)


def install(build, prefix):
    """Installs `build` into `prefix` and returns the paths it must hold."""
    run(["cmake", "--install", build, "--prefix", prefix])
    return {
        "tile-bench": os.path.join(prefix, "bin", "tile-bench"),
        "shared": os.path.join(prefix, "lib", "libtilert.so"),
        "static": os.path.join(prefix, "lib", "libtilert.a"),
        "header": os.path.join(prefix, "include", "tilert", "tilert.hpp"),
        "config": os.path.join(prefix, "lib", "cmake", "tilec",
                               "tilecConfig.cmake"),
        "version": os.path.join(prefix, "lib", "cmake", "tilec",
                                "tilecConfigVersion.cmake"),
        "function": os.path.join(prefix, "lib", "cmake", "tilec",
                                 "TilecAddKernels.cmake"),
        "pkg-config": os.path.join(prefix, "lib", "pkgconfig", "tilert.pc"),
        "python": os.path.join(prefix, "lib", "python3", "site-packages",
                               "tilert", "__init__.py"),
        "python-library": os.path.join(prefix, "lib", "python3",
                                       "site-packages", "tilert",
                                       "libtilert.so"),
    }


def check_installed(paths):
    for what, path in paths.items():
        check(os.path.exists(path), "the install lacks %s (%s)" % (what, path))


def configure(source, build, prefix, *extra, expect_failure=False):
    return run(["cmake", "-G", "Ninja", "-S", source, "-B", build,
                "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + prefix]
               + list(extra), expect_failure=expect_failure)


def build(tree):
    return run(["cmake", "--build", tree, "-j", "2"])


def mtimes(paths):
    return {path: os.stat(path).st_mtime_ns for path in paths}


def check_no_work(tree, outputs, before):
    log = build(tree)
    check("no work to do" in log and "tilec:" not in log,
          "a build with nothing changed did work:\n" + log)
    check(mtimes(outputs) == before,
          "a build with nothing changed rewrote the kernels")


def check_rebuilds(tree, outputs, touched, why):
    before = mtimes(outputs)
    # Now, which must be later than every output (not in the future: the
    # outputs the build writes must be newer than the touched file).
    while time.time_ns() <= max(before.values()):
        time.sleep(0.01)
    os.utime(touched)
    log = build(tree)
    check("tilec: compiling vector_add.tile" in log,
          "touching %s did not rerun tilec:\n%s" % (why, log))
    after = mtimes(outputs)
    check(all(after[p] != before[p] for p in outputs),
          "touching %s did not rewrite every kernel file" % why)
    check_no_work(tree, outputs, after)


def consumer_project(work, prefix):
    """Steps 2 and 3; returns the consumer's build tree."""
    source = os.path.join(work, "consumer")
    tree = os.path.join(work, "consumer-build")
    os.makedirs(source)
    for name in PROJECT_FILES:
        shutil.copy(os.path.join(HERE, name), source)
    shutil.copy(SPEC, source)
    configure(source, tree, prefix)
    cubins = [os.path.join(tree, "k", "vector_add.%s.%s" % (arch, ext))
              for arch in ("sm_80", "sm_90a") for ext in ("cubin", "json")]
    fatbin = [os.path.join(tree, "kfat", name) for name in
              ("vector_add.fatbin", "vector_add.sm_80.json",
               "vector_add.sm_90a.json")]
    manifest = [os.path.join(tree, "kman", "%s.%s.%s" % (stem, arch, ext))
                for stem in ("vector_add", "vector_add-dtype_f16-block_2048")
                for arch in ("sm_80", "sm_90a") for ext in ("cubin", "json")]
    manifest += [os.path.join(tree, "kman", "vector_add-block_4096.sm_90a." +
                              ext) for ext in ("cubin", "json")]
    fast = [os.path.join(tree, "kfast", "vector_add.sm_90a." + ext)
            for ext in ("cubin", "json")]
    outputs = cubins + fatbin + manifest + fast
    check(not any(os.path.exists(p) for p in outputs),
          "configuring compiled kernels: that is the build's work")
    log = build(tree)
    # Once per target, and once per configuration of the manifest.
    check(log.count("tilec: compiling vector_add.tile") == 7,
          "the first build did not run tilec once per compilation:\n" + log)
    check("tilec: compiling vector_add.tile for sm_80 sm_90a with -D "
          "dtype=f16 -D block=2048" in log,
          "the manifest's second configuration was not compiled:\n" + log)
    for shown in ("sm_90a with -D block=4096 (--fast-math)",
                  "sm_90a (--fast-math)"):
        check("tilec: compiling vector_add.tile for " + shown in log,
              "a FAST_MATH or fast_math compilation was not compiled with "
              "--fast-math:\n" + log)
    check("tilec: embedding the kernels of kemb" in log,
          "the first build did not generate the EMBED library:\n" + log)
    with open(os.path.join(tree, "kemb.embed", "kemb.h")) as f:
        header = f.read()
    for declaration in (
            "void vector_add(const DLTensor &A, const DLTensor &B, "
            "const DLTensor &C, CUstream stream = nullptr);",
            "void vector_add(float *A, float *B, float *C, int64_t N, "
            "CUstream stream = nullptr, int32_t device = 0);"):
        check(declaration in header,
              "kemb.h lacks `%s`:\n%s" % (declaration, header))
    for path in outputs:
        check(os.path.exists(path), "the build did not write " + path)
    with open(os.path.join(tree, "kfat", "vector_add.sm_90a.json")) as f:
        check('"kind": "fatbin"' in f.read(),
              "the FATBIN JSON does not name the fatbin")
    check_no_work(tree, outputs, mtimes(outputs))
    check_rebuilds(tree, outputs, os.path.join(source, "vector_add.tile"),
                   "vector_add.tile")
    check_rebuilds(tree, outputs, os.path.join(prefix, "bin", "tilec"),
                   "the tilec executable")
    print(run(["ctest", "--test-dir", tree, "--output-on-failure"]))
    return tree


def pkg_config_program(work, prefix, kernel_json):
    """A C program built with tilert.pc loads a kernel."""
    program = os.path.join(work, "pc-check.c")
    with open(program, "w") as f:
        f.write("""#include <tilert/tilert.h>
#include <stdio.h>
int main(int argc, char **argv) {
  tilertKernel kernel;
  tilertKernelInfo info;
  if (argc != 2 || tilertKernelLoad(argv[1], &kernel) != TILERT_SUCCESS ||
      tilertKernelGetInfo(kernel, &info) != TILERT_SUCCESS) {
    fprintf(stderr, "%s\\n", tilertGetLastErrorMessage());
    return 1;
  }
  printf("libtilert %s: %s for %s\\n", tilertGetVersion(), info.name,
         info.arch);
  return tilertKernelDestroy(kernel) != TILERT_SUCCESS;
}
""")
    env = dict(os.environ,
               PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "tilert"],
                env=env).split()
    exe = os.path.join(work, "pc-check")
    run(["cc", program, "-o", exe,
         "-Wl,-rpath," + os.path.join(prefix, "lib")] + flags)
    out = run([exe, kernel_json])
    check(re.search(r"libtilert \d+\.\d+\.\d+: vector_add for sm_90a", out),
          "the pkg-config program printed: " + out)


def python_module(prefix, kernel_json):
    """The installed module finds the installed library by itself."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TILERT_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = os.path.join(prefix, "lib", "python3", "site-packages")
    out = run([sys.executable, "-c",
               "import os, sys, tilert\n"
               "k = tilert.Kernel(sys.argv[1])\n"
               "print(k)\n"
               "print(os.path.realpath(tilert.library_path()))\n",
               kernel_json], cwd=prefix, env=env)
    check("<tilert.Kernel vector_add(A: f32[N], B: f32[N], C: f32[N]) sm_90a>"
          in out, "the installed Python module printed: " + out)
    check(os.path.realpath(prefix) in out,
          "the installed Python module loaded a library outside the prefix: "
          + out)


# Calls of tilec_add_kernels() that must fail at configure time, each with
# the message that names the problem.
BAD_CALLS = [
    ("tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_75)",
     r"unknown architecture 'sm_75'"),
    ("tilec_add_kernels(k SOURCES nope.tile ARCHS sm_80)",
     r"the source '[^']*nope\.tile' does not exist"),
    ("tilec_add_kernels(k SOURCES vector_add.tile)",
     r"no ARCHS"),
    ("tilec_add_kernels(k ARCHS sm_80)",
     r"no SOURCES"),
    ("tilec_add_kernels(k FAT_BIN SOURCES vector_add.tile ARCHS sm_80)",
     r"unknown arguments 'FAT_BIN'"),
    ("tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_80 FAT_BIN)",
     r"unknown architecture 'FAT_BIN'"),
    ("tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_80 DEFINES)",
     r"DEFINES is given without a value"),
    ("tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_80 "
     "DEFINES blocks=64)",
     r"-D blocks=64: no kernel in .* has a compile-time parameter named "
     r"'blocks'"),
    ("tilec_add_kernels(k-1 SOURCES vector_add.tile ARCHS sm_80 EMBED)",
     r"EMBED needs a target name that is a C\+\+ identifier .*not 'k-1'"),
    ("tilec_embed_kernels(k)", r"tilec_embed_kernels\(k\): no JSONS"),
    ("tilec_embed_kernels(k JSONS nope.json)",
     r"tilec_embed_kernels\(k\): '[^']*nope\.json' does not exist"),
    ("tilec_add_kernels(k MANIFEST nope.yaml)",
     r"the manifest '[^']*nope\.yaml' does not exist"),
    ("tilec_add_kernels(k MANIFEST bad.yaml)",
     r"bad\.yaml:4:\d+: error: unknown architecture 'sm_99'"),
    ("tilec_add_kernels(k MANIFEST two.yaml EMBED)",
     r"EMBED declares one function per kernel, and the manifest has several "
     r"configurations of '[^']*vector_add\.tile'"),
    ("tilec_add_kernels(k MANIFEST bad.yaml ARCHS sm_80)",
     r"MANIFEST names the sources, architectures, -D values and fast_math "
     r"itself"),
    ("tilec_add_kernels(k MANIFEST two.yaml FAST_MATH)",
     r"give it without SOURCES, ARCHS, DEFINES or FAST_MATH"),
    ("add_custom_target(k)\n"
     "tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_80)",
     r"a target named 'k' already exists"),
    ("tilec_add_kernels(k SOURCES vector_add.tile other/vector_add.tile "
     "ARCHS sm_80)",
     r"two sources would write '[^']*vector_add\.sm_80\.cubin'"),
]


def bad_calls(work, prefix):
    for index, (call, message) in enumerate(BAD_CALLS):
        source = os.path.join(work, "bad-%d" % index)
        os.makedirs(os.path.join(source, "other"))
        shutil.copy(SPEC, source)
        shutil.copy(SPEC, os.path.join(source, "other"))
        with open(os.path.join(source, "bad.yaml"), "w") as f:
            f.write("kernels:\n  - spec: vector_add.tile\n"
                    "    archs:\n      - sm_99\n")
        with open(os.path.join(source, "two.yaml"), "w") as f:
            f.write("kernels:\n  - spec: vector_add.tile\n"
                    "    archs: sm_80\n    configs: [{}, {block: 2048}]\n")
        with open(os.path.join(source, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.20)\n"
                    "project(bad LANGUAGES CXX)\n"
                    "find_package(tilec CONFIG REQUIRED)\n" + call + "\n")
        out = configure(source, source + "-build", prefix,
                        expect_failure=True)
        flat = " ".join(out.split())
        check(re.search(message, flat),
              "%s\nfailed without the message /%s/:\n%s"
              % (call, message, out))


def runtime_only(work, runtime_build, consumer_tree):
    """Step 5."""
    prefix = os.path.join(work, "runtime-prefix")
    paths = install(runtime_build, prefix)
    check_installed(paths)
    check(not os.path.exists(os.path.join(prefix, "bin", "tilec")),
          "a runtime-only build installed tilec")
    for name, call, message in [
            ("component",
             "find_package(tilec CONFIG REQUIRED COMPONENTS compiler)",
             r"this tilec package has no compiler: it was built with "
             r"-DTILEC_BUILD_COMPILER=OFF"),
            ("function",
             "find_package(tilec CONFIG REQUIRED)\n"
             "tilec_add_kernels(k SOURCES vector_add.tile ARCHS sm_80)",
             r"has no compiler: it was built with -DTILEC_BUILD_COMPILER=OFF")]:
        source = os.path.join(work, "runtime-only-" + name)
        os.makedirs(source)
        shutil.copy(SPEC, source)
        with open(os.path.join(source, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.20)\n"
                    "project(rt LANGUAGES CXX)\n" + call + "\n")
        out = configure(source, source + "-build", prefix,
                        expect_failure=True)
        check(re.search(message, " ".join(out.split())),
              "%s: no message /%s/:\n%s" % (name, message, out))
    source = os.path.join(work, "consumer")
    tree = os.path.join(work, "consumer-runtime-only")
    configure(source, tree, prefix, "-DCONSUMER_KERNEL_DIR=" + consumer_tree)
    log = build(tree)
    check("tilec: compiling" not in log,
          "the runtime-only build ran tilec:\n" + log)
    print(run(["ctest", "--test-dir", tree, "--output-on-failure"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True,
                        help="a build tree with the compiler, to install")
    parser.add_argument("--runtime-build",
                        help="a -DTILEC_BUILD_COMPILER=OFF build tree")
    parser.add_argument("--kernels-out",
                        help="copy the project's kernels (k/, kfat/) here")
    parser.add_argument("--work", help="scratch folder (default: a new "
                        "temporary one, removed after a success)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="tilec-package-")
    started = time.time()
    try:
        prefix = os.path.join(work, "prefix")
        paths = install(os.path.abspath(args.build), prefix)
        paths["tilec"] = os.path.join(prefix, "bin", "tilec")
        paths["tile-opt"] = os.path.join(prefix, "bin", "tile-opt")
        check_installed(paths)
        version = run([paths["tilec"], "--version"])
        check(version.startswith("tilec version "),
              "the installed tilec printed: " + version)
        run([paths["tile-opt"], "--version"])
        tree = consumer_project(work, prefix)
        kernel_json = os.path.join(tree, "k", "vector_add.sm_90a.json")
        pkg_config_program(work, prefix, kernel_json)
        python_module(prefix, kernel_json)
        bad_calls(work, prefix)
        if args.kernels_out:
            shutil.rmtree(args.kernels_out, ignore_errors=True)
            for name in ("k", "kfat"):
                shutil.copytree(os.path.join(tree, name),
                                os.path.join(args.kernels_out, name))
        if args.runtime_build:
            runtime_only(work, os.path.abspath(args.runtime_build), tree)
    except Failure as failure:
        print("FAILED: %s\n(work folder kept: %s)" % (failure, work))
        return 1
    if not args.work:
        shutil.rmtree(work)
    print("PASSED: the installed package (%.0f s)" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
