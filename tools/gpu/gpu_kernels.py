#!/usr/bin/env python3
"""Compiles the GPU tests' kernels from the checkout, and refuses stale ones.

    gpu_kernels.py compile --tilec build/tools/tilec/tilec --out build/kernels
    gpu_kernels.py check build/kernels

`compile` (development machine, needs tilec) compiles every variant listed in
test/gpu/kernels/variants.txt for sm_90a and sm_80 (or for the architectures
a variant names with `--arch`), as cubin and PTX (so that a newer GPU
JIT-compiles the sm_80 PTX), into OUT/<variant>/, and records in
OUT/provenance.json what they were built from: the tilec version, the git
commit, a sha256 of every file that determines the generated code (the
compiler's sources, the specs, the variant list, this script) and the sha256 of
every kernel JSON written. OUT is replaced as a whole, only once every variant
compiled.

`check` (GPU machine, no LLVM) recomputes those source hashes on the checkout
and compares them, the tilec version (CMakeLists.txt's project version) and
the set of kernel JSONs with the record; any difference is an error naming
it, so that a kernel directory compiled from other sources is never tested.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANTS = "test/gpu/kernels/variants.txt"
PROVENANCE = "provenance.json"
SCHEMA = "tilec.gpu-kernels/1"
ARCHS = ["sm_90a", "sm_80"]
EMIT = "ptx,cubin,json"
# What determines the generated code: the compiler's sources and build
# settings, every spec, the variant list and this script (the flags).
SOURCE_DIRS = ["compiler", "dialects", "passes", "codegen", "tools/tilec",
               "specs", "test/gpu/kernels"]
SOURCE_FILES = ["CMakeLists.txt", "tools/gpu/gpu_kernels.py"]


class Error(Exception):
    """A failure reported as `gpu_kernels.py: error: ...`."""


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_hashes():
    """{relative path: sha256} of every file that determines the kernels."""
    paths = list(SOURCE_FILES)
    for top in SOURCE_DIRS:
        for directory, subdirs, files in os.walk(os.path.join(ROOT, top)):
            subdirs[:] = sorted(d for d in subdirs
                                if not d.startswith(".") and d != "__pycache__")
            for name in files:
                if not name.startswith(".") and not name.endswith(".pyc"):
                    paths.append(os.path.relpath(os.path.join(directory, name), ROOT))
    return {path: sha256_file(os.path.join(ROOT, path)) for path in sorted(paths)}


def combined_hash(hashes):
    digest = hashlib.sha256()
    for path, value in sorted(hashes.items()):
        digest.update(f"{path}\0{value}\n".encode())
    return digest.hexdigest()


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        match = re.search(r"project\(tilec\s+VERSION\s+([0-9.]+)", f.read())
    if not match:
        raise Error("no `project(tilec VERSION ...)` in CMakeLists.txt")
    return match.group(1)


def git_state():
    """(commit, dirty) of the checkout, or (None, None) outside git."""
    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                                capture_output=True, text=True, check=True)
        status = subprocess.run(["git", "-C", ROOT, "status", "--porcelain"],
                                capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None, None
    return commit.stdout.strip(), bool(status.stdout.strip())


# The tilec flags a variant may add to its -D pairs.
VARIANT_FLAGS = {"--clusters"}
# The flags with a value a variant may give, as pairs like `-D NAME=VALUE`:
# `--arch ARCH` (repeatable) compiles the variant for those architectures
# only, instead of every one of ARCHS (a configuration sm_80's shared memory
# cannot hold).
VARIANT_OPTIONS = {"-D", "--arch"}


def read_variants():
    """[(name, spec, [-D and flag arguments])] from the variant list."""
    variants, names = [], set()
    with open(os.path.join(ROOT, VARIANTS)) as f:
        for number, line in enumerate(f, 1):
            words = shlex.split(line, comments=True)
            if not words:
                continue
            where = f"{VARIANTS}:{number}"
            name, spec, defines = words[0], words[1] if len(words) > 1 else "", words[2:]
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name in names:
                raise Error(f"{where}: bad or repeated variant name '{name}'")
            if not spec or not os.path.isfile(os.path.join(ROOT, spec)):
                raise Error(f"{where}: no spec file '{spec}'")
            pairs = [word for word in defines if word not in VARIANT_FLAGS]
            if len(pairs) % 2 or any(flag not in VARIANT_OPTIONS
                                     for flag in pairs[::2]):
                raise Error(f"{where}: expected `-D NAME=VALUE` pairs (and "
                            f"`--arch ARCH` pairs, "
                            f"{', '.join(sorted(VARIANT_FLAGS))}) after the spec")
            archs = [arch for flag, arch in zip(pairs[::2], pairs[1::2])
                     if flag == "--arch"]
            if any(arch not in ARCHS for arch in archs):
                raise Error(f"{where}: `--arch` must be one of "
                            f"{', '.join(ARCHS)}")
            names.add(name)
            variants.append((name, spec, defines))
    if not variants:
        raise Error(f"{VARIANTS} lists no variant")
    return variants


def kernel_jsons(directory):
    """Sorted relative paths of the kernel JSONs under `directory`."""
    found = []
    for current, subdirs, files in os.walk(directory):
        subdirs.sort()
        for name in files:
            path = os.path.relpath(os.path.join(current, name), directory)
            if name.endswith(".json") and path != PROVENANCE:
                found.append(path)
    return sorted(found)


def tilec_version(tilec):
    result = subprocess.run([tilec, "--version"], capture_output=True, text=True)
    if result.returncode != 0:
        raise Error(f"{tilec} --version failed: {result.stderr.strip()}")
    text = result.stdout.strip()
    match = re.search(r"tilec\D*([0-9]+\.[0-9]+\.[0-9]+)", text)
    if not match:
        raise Error(f"cannot find the tilec version in `{tilec} --version`: {text}")
    return match.group(1), text


def compile_variant(tilec, staging, variant):
    name, spec, defines = variant
    archs = [] if "--arch" in defines else [
        a for arch in ARCHS for a in ("--arch", arch)]
    command = [tilec, spec, *archs, f"--emit={EMIT}", *defines, "-o",
               os.path.join(staging, name)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return name, command, result


def compile_all(args):
    tilec = os.path.abspath(args.tilec)
    version, version_text = tilec_version(tilec)
    variants = read_variants()
    out = os.path.abspath(args.out)
    staging = out + ".partial"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, command, result in pool.map(
                lambda v: compile_variant(tilec, staging, v), variants):
            if result.returncode == 0:
                print(f"compiled {name}", flush=True)
            else:
                failed.append(name)
                print(f"FAILED {name}: {shlex.join(command)}\n"
                      f"{result.stdout}{result.stderr}", flush=True)
    if failed:
        raise Error(f"{len(failed)} variant(s) did not compile: {', '.join(failed)}")
    commit, dirty = git_state()
    sources = source_hashes()
    kernels = {}
    for name, spec, defines in variants:
        files = kernel_jsons(os.path.join(staging, name))
        kernels[name] = {
            "spec": spec,
            "defines": defines[1::2],
            "jsons": {path: sha256_file(os.path.join(staging, name, path))
                      for path in files},
        }
    provenance = {
        "schema": SCHEMA,
        "tilec_version": version,
        "tilec_version_text": version_text,
        "archs": ARCHS,
        "emit": EMIT,
        "git_commit": commit,
        "git_dirty": dirty,
        "source_hash": combined_hash(sources),
        "sources": sources,
        "kernels": kernels,
    }
    with open(os.path.join(staging, PROVENANCE), "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(staging, out)
    count = sum(len(k["jsons"]) for k in kernels.values())
    print(f"{count} kernels (of {len(variants)} variants) in {out}, "
          f"tilec {version}, commit {commit or 'unknown'}{' (dirty)' if dirty else ''}")


def describe_differences(recorded, current):
    changed = sorted(p for p in recorded.keys() & current.keys()
                     if recorded[p] != current[p])
    lines = []
    for label, paths in (("changed", changed),
                         ("new in the checkout", sorted(current.keys() - recorded.keys())),
                         ("missing from the checkout", sorted(recorded.keys() - current.keys()))):
        if paths:
            shown = ", ".join(paths[:8]) + (f" (+{len(paths) - 8} more)" if len(paths) > 8 else "")
            lines.append(f"    {label}: {shown}")
    return lines


def check(args):
    directory = os.path.abspath(args.directory)
    path = os.path.join(directory, PROVENANCE)
    rebuild = ("compile them from this checkout on the development machine: "
               "cmake --build build --target gpu-kernels")
    try:
        with open(path) as f:
            provenance = json.load(f)
    except (OSError, ValueError) as error:
        raise Error(f"{path}: {error}; {rebuild}")
    if provenance.get("schema") != SCHEMA:
        raise Error(f"{path}: schema is {provenance.get('schema')!r}, expected {SCHEMA!r}")
    problems = []
    version = project_version()
    if provenance.get("tilec_version") != version:
        problems.append(f"compiled by tilec {provenance.get('tilec_version')}, "
                        f"the checkout is tilec {version}")
    sources = source_hashes()
    if provenance.get("source_hash") != combined_hash(sources):
        problems.append("the sources that determine the kernels differ from "
                        "those they were compiled from:")
        problems += describe_differences(provenance.get("sources", {}), sources)
    recorded = {}
    for name, kernel in provenance.get("kernels", {}).items():
        for file, digest in kernel.get("jsons", {}).items():
            recorded[os.path.join(name, file)] = digest
    present = set(kernel_jsons(directory))
    for file in sorted(present - recorded.keys()):
        problems.append(f"{file} is not in {PROVENANCE} (left over from another build?)")
    for file in sorted(recorded.keys() - present):
        problems.append(f"{file} is in {PROVENANCE} but missing")
    for file in sorted(present & recorded.keys()):
        if sha256_file(os.path.join(directory, file)) != recorded[file]:
            problems.append(f"{file} was modified after it was compiled")
    commit = provenance.get("git_commit") or "unknown"
    origin = (f"commit {commit}{' (dirty)' if provenance.get('git_dirty') else ''}, "
              f"tilec {provenance.get('tilec_version')}")
    if problems:
        raise Error(f"stale kernels in {directory} (compiled from {origin}):\n"
                    + "\n".join(p if p.startswith(" ") else f"  {p}" for p in problems)
                    + f"\n{rebuild}")
    head, _ = git_state()
    note = "" if head in (None, commit) else f"; the checkout is at {head}, same sources"
    print(f"kernels in {directory} are current: {len(recorded)} kernels from {origin}{note}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    compile_parser = commands.add_parser("compile", help="compile every variant")
    compile_parser.add_argument("--tilec", required=True, help="the tilec binary")
    compile_parser.add_argument("--out", required=True, help="the kernel directory")
    compile_parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    check_parser = commands.add_parser("check", help="refuse stale kernels")
    check_parser.add_argument("directory", help="the kernel directory")
    args = parser.parse_args()
    try:
        compile_all(args) if args.command == "compile" else check(args)
    except Error as error:
        sys.exit(f"gpu_kernels.py: error: {error}")


if __name__ == "__main__":
    main()
