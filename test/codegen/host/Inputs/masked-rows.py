#!/usr/bin/env python3
"""Writes an [M, N] tensor of random values with rows masked by -inf.

    masked-rows.py FILE DTYPE M N MASKS [OFFSET]

MASKS is a comma-separated list of ROW=KIND (possibly empty, `-`): KIND `all`
makes every element of row ROW -inf (a fully masked row: softmax gives NaN
there, as torch.softmax does), `odd` its odd columns (a partly masked row).
The other elements are pseudo-random in [OFFSET - 8, OFFSET + 8) (OFFSET 0
by default): wide enough for exp to span many binades, and with an OFFSET
far from 0, rows whose mean dwarfs their spread (a norm that counts an
element past the row's end as 0 is then visibly wrong). The file is raw
little-endian, for `tile-host-run --input`.
"""

import random
import struct
import sys


def bf16_bits(x):
    bits = struct.unpack('<I', struct.pack('<f', x))[0]
    return ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) & 0xffff


def main():
    path, dtype, m, n, masks = sys.argv[1:6]
    offset = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    m, n = int(m), int(n)
    kinds = dict(item.split('=') for item in masks.split(',')
                 if item and item != '-')
    generator = random.Random(7)
    values = []
    for i in range(m):
        kind = kinds.get(str(i))
        for j in range(n):
            masked = kind == 'all' or (kind == 'odd' and j % 2 == 1)
            values.append(-float('inf') if masked
                          else offset + generator.uniform(-8.0, 8.0))
    with open(path, 'wb') as f:
        if dtype == 'bf16':
            f.write(struct.pack('<%dH' % len(values),
                                *(bf16_bits(v) for v in values)))
        else:
            f.write(struct.pack('<%d%s' % (len(values),
                                           {'f16': 'e', 'f32': 'f'}[dtype]),
                                *values))


if __name__ == '__main__':
    main()
