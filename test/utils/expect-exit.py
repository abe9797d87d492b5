#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with exactly the given status.

    expect-exit.py STATUS COMMAND [ARGS...]

The lit substitution %expect-exit. A different status or a signal (a crash,
an abort) fails the test; lit's `not` fails only on a signal and accepts any
non-zero status, such as 2 or the 134 with which a wrapper reports an abort.
The command inherits stdin, stdout and stderr, so it can sit in a pipeline
(`%expect-exit 1 tilec ... 2>&1 | FileCheck %s`). Exits 0 on the expected
status and 1 (with a message on stderr) otherwise.
"""

import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    expected = int(sys.argv[1])
    try:
        status = subprocess.call(sys.argv[2:])
    except OSError as error:
        sys.exit('expect-exit: cannot run %s: %s' % (sys.argv[2], error))
    if status == expected:
        return 0
    # Popen reports a signal as the negated signal number.
    what = ('killed by signal %d' % -status if status < 0
            else 'exit status %d' % status)
    sys.stderr.write('expect-exit: %s: %s, expected exit status %d\n' % (
        ' '.join(sys.argv[2:]), what, expected))
    return 1


if __name__ == '__main__':
    sys.exit(main())
