#!/usr/bin/env python3
"""Makes CUDA toolkit folders whose tools log their use and run the real ones.

    fake-cuda-toolkit.py REAL_ROOT DIR...

The lit substitution %fake-cuda-toolkit. Each DIR gets `bin/ptxas` and
`bin/fatbinary`, shell scripts that append their own path to `DIR/used.log`
and run REAL_ROOT's tool with their arguments, and `nvvm`, a link to
REAL_ROOT's (libdevice). A test then reads `used.log` to see which toolkit a
lookup route chose, also in an environment emptied with `env -i`.
"""

import os
import shlex
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    real_root = os.path.abspath(sys.argv[1])
    for directory in sys.argv[2:]:
        directory = os.path.abspath(directory)
        os.makedirs(os.path.join(directory, "bin"), exist_ok=True)
        log = os.path.join(directory, "used.log")
        for tool in ("ptxas", "fatbinary"):
            path = os.path.join(directory, "bin", tool)
            real = os.path.join(real_root, "bin", tool)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n"
                        f'echo "$0" >> {shlex.quote(log)}\n'
                        f'exec {shlex.quote(real)} "$@"\n')
            os.chmod(path, 0o755)
        nvvm = os.path.join(directory, "nvvm")
        if not os.path.lexists(nvvm):
            os.symlink(os.path.join(real_root, "nvvm"), nvvm)


if __name__ == "__main__":
    sys.exit(main())
