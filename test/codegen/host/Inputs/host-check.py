#!/usr/bin/env python3
"""Runs a kernel's generated code on the host and compares with a reference.

    host-check.py FILE.tile [tile-host-run options: --kernel, -D, --dim, ...]

Runs `tile-host-run FILE.tile OPTIONS -o DIR` (tile-host-run compiles the
kernel as tilec does, runs every thread of the grid on the CPU and fails on
any out-of-bounds or misaligned global access), reads the tensors before and
after the run, computes the expected tensors with the kernel's reference in
references.py (pure Python: an independent statement of what the kernel
means, not derived from the lowering) and compares every element: floats
within a tolerance of their dtype (the GPU and the host may round
transcendentals and fused operations differently in the last bits), the
other dtypes exactly. A tensor the reference does not compute must be left
unchanged. Exits 1 and prints the first differences on any mismatch.
"""

import json
import math
import os
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import references  # noqa: E402

# struct formats of the dtypes; bf16 is read as its 16 bits.
FORMATS = {'f16': 'e', 'bf16': 'H', 'f32': 'f', 'f64': 'd', 'i8': 'b',
           'i16': 'h', 'i32': 'i', 'i64': 'q', 'u8': 'B', 'u32': 'I',
           'bool': 'B'}
# Relative and absolute tolerances of the float dtypes.
TOLERANCES = {'f16': (2e-3, 1e-3), 'bf16': (1.6e-2, 1e-2),
              'f32': (1e-5, 1e-6), 'f64': (1e-12, 1e-12)}
MAX_REPORTED = 10


def decode(dtype, data):
    """The elements of a raw tensor file as Python numbers."""
    count = len(data) // struct.calcsize(FORMATS[dtype])
    values = struct.unpack('<%d%s' % (count, FORMATS[dtype]), data)
    if dtype == 'bf16':
        return [struct.unpack('<f', struct.pack('<I', v << 16))[0]
                for v in values]
    if dtype == 'bool':
        return [v != 0 for v in values]
    return list(values)


def matches(dtype, actual, expected, error=0.0):
    """Whether `actual` is `expected` within the dtype's tolerance plus the
    reference's own error bound `error`."""
    if dtype not in TOLERANCES:
        return actual == expected
    if math.isnan(expected) or math.isnan(actual):
        return math.isnan(expected) and math.isnan(actual)
    if math.isinf(expected) or math.isinf(actual):
        return actual == expected
    rtol, atol = TOLERANCES[dtype]
    return abs(actual - expected) <= error + atol + rtol * abs(expected)


def position(shape, flat):
    """The multi-dimensional index of element `flat` of a row-major tensor."""
    index = []
    for extent in reversed(shape):
        index.append(flat % extent)
        flat //= extent
    return ', '.join(str(i) for i in reversed(index))


class Run:
    """What a reference sees: the run's description and input tensors."""

    def __init__(self, description, directory):
        self.kernel = description['kernel']
        self.constants = description['constants']
        self.dims = description['dims']
        self.scalars = {name: s['value']
                        for name, s in description['scalars'].items()}
        self.tensors = {t['name']: t for t in description['tensors']}
        self.inputs = {}
        self.outputs = {}
        for name, tensor in self.tensors.items():
            for key, into in (('input', self.inputs),
                              ('output', self.outputs)):
                with open(os.path.join(directory, tensor[key]), 'rb') as f:
                    into[name] = decode(tensor['dtype'], f.read())

    def dtype(self, name):
        return self.tensors[name]['dtype']

    def shape(self, name):
        return self.tensors[name]['shape']


def main():
    source, options = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as directory:
        command = ['tile-host-run', source] + options + ['-o', directory]
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        sys.stdout.write(result.stdout)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            sys.stderr.write('host-check: error: %s failed (exit %d)\n' %
                             (' '.join(command), result.returncode))
            return 1
        with open(os.path.join(directory, 'run.json')) as f:
            run = Run(json.load(f), directory)

    reference = getattr(references, run.kernel, None)
    if reference is None:
        sys.stderr.write('host-check: error: references.py has no reference '
                         'for kernel %s\n' % run.kernel)
        return 1
    expected = dict(run.inputs)
    expected.update(reference(run))
    failed = False
    checked = 0
    for name, tensor in run.tensors.items():
        dtype, shape = tensor['dtype'], tensor['shape']
        errors = getattr(expected[name], 'errors',
                         [0.0] * len(expected[name]))
        wrong = [i for i, (a, e, error) in
                 enumerate(zip(run.outputs[name], expected[name], errors))
                 if not matches(dtype, a, e, error)]
        if len(expected[name]) != len(run.outputs[name]):
            sys.stderr.write('host-check: error: the reference of %s has %d '
                             'elements, the tensor %d\n' %
                             (name, len(expected[name]),
                              len(run.outputs[name])))
            failed = True
        checked += len(run.outputs[name])
        if not wrong:
            continue
        failed = True
        sys.stderr.write('host-check: error: %s (%s%s): %d of %d elements '
                         'differ from the reference\n' %
                         (name, dtype, shape, len(wrong),
                          len(run.outputs[name])))
        for i in wrong[:MAX_REPORTED]:
            sys.stderr.write('  %s[%s]: expected %r, got %r\n' %
                             (name, position(shape, i), expected[name][i],
                              run.outputs[name][i]))
    if failed:
        return 1
    print('host-check: %s: %d elements of %d tensors match the reference' %
          (run.kernel, checked, len(run.tensors)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
