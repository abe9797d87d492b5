#!/usr/bin/env python3
"""Assembles PTX with ptxas, so that a test fails on PTX ptxas rejects.

    ptxas-check.py PTXAS FILE...   assembles every FILE
    ptxas-check.py PTXAS           assembles the PTX modules read from stdin
                                   and copies stdin to stdout

The lit substitution %ptxas-check (lit.cfg.py passes the ptxas it found). A
module is assembled for the architecture of its `.target` line, as
`ptxas -arch=<arch> -o /dev/null`, in the ptxas default optimization level.
On stdin it reads what `tilec --emit=ptx,...` prints: artifacts separated by
`// -----` lines, of which the ones with a `.target` line are PTX, so it can
sit in a pipeline (`tilec %s --emit=ptx | %ptxas-check | FileCheck %s`).
Fails if ptxas is missing, a module has no `.target`, there is no PTX at
all, or ptxas rejects a module (its messages are printed on stderr).
"""

import os
import re
import subprocess
import sys
import tempfile

TARGET = re.compile(r'^\s*\.target\s+(sm_\w+)', re.MULTILINE)
SEPARATOR = re.compile(r'^// -----\n', re.MULTILINE)


def assemble(ptxas, path, name):
    """Assembles the PTX module in `path` (called `name` in messages);
    returns an error message or None."""
    with open(path) as f:
        target = TARGET.search(f.read())
    if not target:
        return '%s: no .target line' % name
    run = subprocess.run([ptxas, '-arch=' + target.group(1), '-o', os.devnull,
                          path], capture_output=True, text=True)
    if run.returncode != 0:
        return '%s: ptxas -arch=%s failed (exit status %d):\n%s' % (
            name, target.group(1), run.returncode, run.stderr + run.stdout)
    return None


def check_stdin(ptxas):
    text = sys.stdin.read()
    sys.stdout.write(text)
    sys.stdout.flush()
    modules = [m for m in SEPARATOR.split(text) if TARGET.search(m)]
    if not modules:
        return ['<stdin>: no PTX module']
    errors = []
    with tempfile.TemporaryDirectory() as scratch:
        for i, module in enumerate(modules):
            path = os.path.join(scratch, 'module%d.ptx' % i)
            with open(path, 'w') as f:
                f.write(module)
            error = assemble(ptxas, path, '<stdin>, module %d' % i)
            if error:
                errors.append(error)
    return errors


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ptxas = sys.argv[1]
    if not ptxas or not os.access(ptxas, os.X_OK):
        sys.exit('ptxas-check: ptxas not found (lit looks in $CUDA_HOME/bin, '
                 'the CUDA toolkit CMake found and /usr/local/cuda/bin)')
    if len(sys.argv) == 2:
        errors = check_stdin(ptxas)
    else:
        errors = []
        for path in sys.argv[2:]:
            error = assemble(ptxas, path, path)
            if error:
                errors.append(error)
    for error in errors:
        sys.stderr.write('ptxas-check: %s\n' % error)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
