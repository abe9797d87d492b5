"""Python references of the kernels that test/codegen/host/ runs on the host.

Each function is named after its kernel, takes the run (host-check.py's Run:
dims, scalars, constants, input tensors as flat row-major lists) and returns
the expected contents of the tensors the kernel writes, as flat lists. They
restate what the `.tile` source means, element by element, rounding every
operation to its dtype as the language prescribes; they share nothing with
the code generator.
"""

import math
import struct

INTEGER_BITS = {'i8': (8, True), 'i16': (16, True), 'i32': (32, True),
                'i64': (64, True), 'u8': (8, False), 'u32': (32, False)}


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def bf16(x):
    """Rounds to bfloat16 (to nearest, ties to even) through f32."""
    bits = struct.unpack('<I', struct.pack('<f', x))[0]
    bits = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff0000
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def wrap(dtype, x):
    """Reduces an integer to `dtype` as two's complement arithmetic does."""
    bits, signed = INTEGER_BITS[dtype]
    x &= (1 << bits) - 1
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def rounding(dtype):
    """The function that rounds a result to `dtype`."""
    if dtype in INTEGER_BITS:
        return lambda x: wrap(dtype, x)
    return {'f16': f16, 'bf16': bf16, 'f32': f32, 'f64': float}[dtype]


def elementwise(run, inputs, body):
    """[body(*(input[n] for input in inputs)) for every element n]."""
    return [body(*values) for values in zip(*(run.inputs[i] for i in inputs))]


# specs/

def vector_add(run):
    r = rounding(run.dtype('C'))
    return {'C': elementwise(run, 'AB', lambda a, b: r(a + b))}


def scale_add(run):
    r = rounding(run.dtype('C'))
    alpha = run.scalars['alpha']
    return {'C': elementwise(run, 'AB',
                             lambda a, b: r(f32(f32(alpha * a) + b)))}


def gelu_forward(run):
    r = rounding(run.dtype('Y'))

    def gelu(x):
        x = f32(x)
        return f32(f32(0.5 * x) *
                   f32(1.0 + f32(math.erf(f32(x * f32(0.7071067811865476))))))
    return {'Y': elementwise(run, 'X', lambda x: r(gelu(x)))}


# rank2.tile

def rank2_axpy(run):
    r = rounding(run.dtype('Z'))
    return {'Z': elementwise(run, 'XY', lambda x, y: r(r(2.0 * x) + y))}


def rank2_mixed(run):
    m, n = run.dims['M'], run.dims['N']
    x, t, bias = run.inputs['X'], run.inputs['T'], run.inputs['Bias']
    return {'Z': [f32(x[i * n + j] + f32(t[j * m + i] * bias[j]))
                  for i in range(m) for j in range(n)]}


def rank3_sub(run):
    return {'C': elementwise(run, 'A', lambda a: f16(a - 0.5))}


# block-copies.tile

def vector_staged(run):
    n, block = run.dims['N'], run.constants.get('block', 256)
    x = run.inputs['X']

    def reversed_element(index):
        source = index - index % block + block - 1 - index % block
        return x[source] if source < n else 0.0
    return {'Y': [reversed_element(i) for i in range(n)]}


vector_pipelined = vector_staged


def tile_roundtrip(run):
    return {'Y': elementwise(run, 'X', rounding(run.dtype('Y')))}


def shared_regions(run):
    m, n = run.dims['M'], run.dims['N']
    x = run.inputs['X']

    def element(row, column):
        i, j = row % 8, column % 16
        if not (2 <= i < 6 and j >= 8):
            return 0.0
        source_row, source_column = row + 2, column - 8
        inside = source_row < m and source_column < n
        return x[source_row * n + source_column] if inside else 0.0
    return {'Y': [element(i, j) for i in range(m) for j in range(n)]}


def rank3_staged(run):
    return {'Y': list(run.inputs['X'])}


# casts.tile

def casts(run):
    def trunc_i32(x):
        return wrap('i32', int(x))
    inputs = ('H', 'F', 'I', 'U', 'P')
    rows = list(zip(*(run.inputs[name] for name in inputs)))
    return {
        'OF': [f32(f32(h + f32(i * 0.25)) + float(p))
               for h, f, i, u, p in rows],
        'OH': [f16(f32(f * 3.0)) for h, f, i, u, p in rows],
        'OI': [wrap('i32', trunc_i32(f32(f * 100.0)) + u - i)
               for h, f, i, u, p in rows],
        'OB': [bf16(f) for h, f, i, u, p in rows],
        'OD': [f * i + u for h, f, i, u, p in rows],
        'OP': [p != (f > 0.0) for h, f, i, u, p in rows],
    }


# private.tile

def polynomial(run):
    c = run.inputs['C']

    def evaluate(x):
        powers = [1.0]
        for k in range(3):
            powers.append(f32(powers[k] * x))
        total = 0.0
        for k in range(4):
            total = f32(total + f32(c[k] * powers[k]))
        return total
    return {'Y': elementwise(run, 'X', evaluate)}


def fragment_square(run):
    return {'Y': elementwise(run, 'X',
                             lambda x: f16(f32(f32(x * x) - 1.0)))}


# fragment-copy.tile

def fragment_copy(run):
    r = rounding(run.dtype('Y'))
    return {'Y': elementwise(run, 'X', lambda x: r(f32(f32(x) * 2.0)))}


# fragment-broadcast.tile

def broadcast(run):
    n = run.dims['N']
    a, b, sums = run.inputs['A'], [], []
    for start in range(0, n, 64):
        block = [a[k] if k < n else 0.0 for k in range(start, start + 64)]
        total = 0.0
        for value in block:
            total = f32(total + value)
        b += [f32(block[63 - i] - total) for i in range(min(64, n - start))]
        sums += [total, f32(total * 2.0)]
    reversed_sums = [sums[k ^ 1] for k in range(len(sums))]
    return {'B': b, 'S': sums, 'T': reversed_sums}


# scalars.tile

def affine(run):
    s = run.scalars
    a = -s['alpha'] if s['flip'] else s['alpha']
    return {'Y': elementwise(
        run, 'X',
        lambda x: f32(f32(f32(f32(a * x) + s['shift']) + s['h']) + s['k']))}


# math.tile

def scalar_math(run):
    dtype = run.dtype('X')
    r = rounding(dtype)
    # f16 math is computed in f32 and rounded back.
    inner = f32 if dtype == 'f16' else r

    def fn(f, x):
        return r(inner(f(x)))

    def remainder(x, y):
        return r(math.fmod(x, y))

    def e(x):
        return r(r(fn(math.exp, x) + fn(lambda v: 2.0 ** v, x)) -
                 r(fn(math.tanh, x) * fn(math.erf, x)))

    def l(x):
        a = abs(x)
        return r(r(fn(math.log, r(a + 1.0)) + fn(math.log2, r(a + 0.5))) +
                 r(fn(math.sqrt, a) *
                   fn(lambda v: 1.0 / math.sqrt(v), r(a + 1.0))))

    def rr(x, y):
        total = r(float(math.floor(r(x * 3.0))) + float(math.ceil(x)))
        total = r(total + max(x, y))
        total = r(total - min(x, 0.25))
        return r(total + remainder(x, 0.75))
    return {'E': elementwise(run, 'X', e), 'L': elementwise(run, 'X', l),
            'R': elementwise(run, 'XY', rr)}


# math-builtins.tile

def more_math(run):
    dtype = run.dtype('X')
    r = rounding(dtype)
    # f16/bf16 math is computed in f32 and rounded back.
    inner = f32 if dtype in ('f16', 'bf16') else r

    def fn(f, *args):
        return r(inner(f(*args)))

    def sigmoid(x):
        if dtype in ('f16', 'bf16'):
            return r(f32(1.0 / f32(1.0 + f32(math.exp(-x)))))
        return r(1.0 / r(1.0 + r(math.exp(-x))))

    def s(x):
        return r(sigmoid(x) + r(fn(math.sin, x) * fn(math.cos, x)))

    def p(x, y):
        return r(fn(math.pow, r(abs(x) + 0.5), y) + 8.0)

    def f(x, y):
        # One rounding: a fused multiply-add (exact product, then the sum).
        return fn(lambda a, b: a * b + 0.25, x, y)
    return {'S': elementwise(run, 'X', s), 'P': elementwise(run, 'XY', p),
            'F': elementwise(run, 'XY', f)}



# rasterization.tile

def raster_order(run):
    """TileLang's rasterization2DRow<panel>: block number `launch` (x
    fastest) works on tile (x, y); it records the counter, then bumps it."""
    m, n = run.dims['M'], run.dims['N']
    panel = run.constants['panel']
    start = run.inputs['Counter'][0]
    order = list(run.inputs['Order'])
    panels = -(-m * n // (panel * n))
    for launch in range(m * n):
        index, offset = divmod(launch, panel * n)
        rows = panel if index + 1 < panels else (m * n - index * panel * n) // n
        x = offset // rows
        if index % 2 == 1:
            x = n - 1 - x
        y = index * panel + offset % rows
        order[y * n + x] = wrap('i32', start + launch)
    return {'Order': order, 'Counter': [wrap('i32', start + m * n)]}


# shifts.tile

def c_rem(a, b):
    """C's integer remainder: the sign of the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def bits(run):
    dtype = run.dtype('X')
    r = rounding(dtype)

    def y(x):
        total = r(r(x << 3) + (x >> 2))
        return r(r(total + 16) + c_rem(x, 7))

    def z(x):
        return x >> (c_rem(y(x), 4) + 4)
    return {'Y': elementwise(run, 'X', y), 'Z': elementwise(run, 'X', z)}



# The row kernels of specs/ (rows.tile). Their f32 reductions add in an
# order of the layout's choosing, so the references compute in f64 and the
# f32 results get an error bound from the magnitudes they add up.

class Approximate(list):
    """Expected values with a bound on each one's error (beyond the dtype's
    tolerance): the error of adding the terms in f32 in any order."""

    def __init__(self, values, errors):
        super().__init__(values)
        self.errors = errors


# The relative error of an f32 sum of terms in any order, per unit of the
# sum of the terms' magnitudes (far more than a tree of 2^16 additions'
# rounding, far less than any element of magnitude 0.01 in 4096).
SUM_ERROR = 2e-6


def rows(run, name):
    """The rows of the [M, N] input `name`."""
    m, n = run.dims['M'], run.dims['N']
    x = run.inputs[name]
    return [x[i * n:(i + 1) * n] for i in range(m)]


def row_sum(run):
    sums = [math.fsum(row) for row in rows(run, 'X')]
    errors = [SUM_ERROR * math.fsum(abs(v) for v in row)
              for row in rows(run, 'X')]
    return {'Y': Approximate(sums, errors)}


def softmax_rows(run):
    r = rounding(run.dtype('Y'))
    out = []
    for row in rows(run, 'X'):
        top = max(row)
        if top == -math.inf:
            out += [math.nan] * len(row)
            continue
        exps = [math.exp(v - top) for v in row]
        total = math.fsum(exps)
        out += [r(e / total) for e in exps]
    return {'Y': out}


softmax = softmax_rows
softmax_online = softmax_rows


def rmsnorm(run):
    r = rounding(run.dtype('Y'))
    w, eps, out = run.inputs['W'], run.scalars['eps'], []
    for row in rows(run, 'X'):
        scale = 1.0 / math.sqrt(math.fsum(v * v for v in row) / len(row) +
                                eps)
        out += [r(v * scale * w[j]) for j, v in enumerate(row)]
    return {'Y': out}


def layernorm(run):
    r = rounding(run.dtype('Y'))
    w, b, eps, out = run.inputs['W'], run.inputs['B'], run.scalars['eps'], []
    bias = run.constants.get('has_bias', True)
    for row in rows(run, 'X'):
        mean = math.fsum(row) / len(row)
        var = math.fsum((v - mean) ** 2 for v in row) / len(row)
        scale = 1.0 / math.sqrt(var + eps)
        out += [r((v - mean) * scale * w[j] + (b[j] if bias else 0.0))
                for j, v in enumerate(row)]
    return {'Y': out}


# The same kernels with rows staged in shared memory (specs/*_staged.tile).
softmax_staged = softmax_rows
rmsnorm_staged = rmsnorm
layernorm_staged = layernorm


# test/gpu/kernels/transpose_smem.tile (shared.tile)

def transpose_smem(run):
    m, n = run.dims['M'], run.dims['N']
    x = run.inputs['X']
    return {'Y': [x[i * n + j] for j in range(n) for i in range(m)]}


# The GEMMs of specs/ (gemm.tile): C = op(A) op(B) in the accumulator type.
# Tensor cores add the exact products of 16 k at a time to the accumulator,
# so the references compute in f64 and bound the error by the magnitudes
# added: as any f32 sum, or with f16 accumulation one f16 rounding per
# 16 k.

# Where A and B keep element (row, k) and (k, column), per kernel.
GEMM_OPERANDS = {
    'gemm': (False, False), 'gemm_nt': (False, True),
    'gemm_tn': (True, False), 'gemm_tt': (True, True),
    'gemm_bias_gelu': (False, False), 'gemm_bias_gelu_tanh': (False, False),
}


def gemm_products(run):
    """The exact products' sums of every element of C, row-major, and
    their error bounds in the accumulator type."""
    m, n, k = run.dims['M'], run.dims['N'], run.dims['K']
    a, b = run.inputs['A'], run.inputs['B']
    transpose_a, transpose_b = GEMM_OPERANDS[run.kernel]
    rows = [[a[kk * m + i] if transpose_a else a[i * k + kk]
             for kk in range(k)] for i in range(m)]
    columns = [[b[j * k + kk] if transpose_b else b[kk * n + j]
                for kk in range(k)] for j in range(n)]
    per_unit = (SUM_ERROR if run.constants.get('accum', 'f32') == 'f32'
                else (k // 16 + 2) * 2.0 ** -11)
    sums, errors = [], []
    for row in rows:
        for column in columns:
            products = [x * y for x, y in zip(row, column)]
            sums.append(math.fsum(products))
            errors.append(per_unit * math.fsum(abs(p) for p in products))
    return sums, errors


def gemm_reference(run):
    r = rounding(run.dtype('C'))
    sums, errors = gemm_products(run)
    return {'C': Approximate([r(s) for s in sums], errors)}


gemm = gemm_nt = gemm_tn = gemm_tt = gemm_reference


def gemm_bias_epilogue(run, activation):
    """activation(C + bias[column]) on the accumulator; GELU's slope is at
    most 1.13, so the sum's error bound holds after it with a margin."""
    r = rounding(run.dtype('C'))
    n, bias = run.dims['N'], run.inputs['bias']
    sums, errors = gemm_products(run)
    values = [r(activation(s + bias[index % n]))
              for index, s in enumerate(sums)]
    return {'C': Approximate(values, [1.2 * e for e in errors])}


def gemm_bias_gelu(run):
    return gemm_bias_epilogue(
        run, lambda x: 0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0))))


def gemm_bias_gelu_tanh(run):
    return gemm_bias_epilogue(
        run, lambda x: 0.5 * x * (1.0 + math.tanh(
            math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3))))


# specs/flash_attention.tile: O = softmax(scale Q K^T) V per (batch, head),
# with the causal mask if asked. The kernel rounds the probabilities P to
# dtype before P V, so each output's error bound is two roundings of that
# dtype on sum_j p_j |v_j|.

def flash_attention(run):
    b, h, s, d = run.shape('Q')
    q, k, v = run.inputs['Q'], run.inputs['K'], run.inputs['V']
    scale, causal = run.scalars['scale'], run.constants.get('causal', False)
    r = rounding(run.dtype('O'))
    unit = {'f16': 2.0 ** -11, 'bf16': 2.0 ** -8}[run.dtype('O')]
    values, errors = [], []
    for head in range(b * h):
        base = head * s * d

        def row(tensor, i):
            return tensor[base + i * d:base + (i + 1) * d]
        keys = [row(k, j) for j in range(s)]
        for i in range(s):
            query = row(q, i)
            visible = i + 1 if causal else s
            logits = [scale * math.fsum(x * y for x, y in zip(query, keys[j]))
                      for j in range(visible)]
            top = max(logits)
            weights = [math.exp(x - top) for x in logits]
            total = math.fsum(weights)
            p = [w / total for w in weights]
            for c in range(d):
                column = [v[base + j * d + c] for j in range(visible)]
                values.append(r(math.fsum(pj * vj for pj, vj in
                                          zip(p, column))))
                errors.append(2 * unit * math.fsum(pj * abs(vj) for pj, vj
                                                   in zip(p, column)))
    return {'O': Approximate(values, errors)}


# test/gpu/kernels/print.tile (print.tile)

def print_doubled(run):
    return {'Y': elementwise(run, 'X', lambda x: f32(x * 2.0))}


# guard-tests.tile

def guard_tests(run):
    n, x = run.dims['N'], run.inputs['X']

    def column(test, k):
        return [f32(v + k) if test(j) else -float(k) for j, v in enumerate(x)]
    return {
        'A': column(lambda j: j < n, 1.0),
        'B': column(lambda j: not j >= n, 2.0),
        'C': column(lambda j: n - j > 5, 3.0),
        'D': column(lambda j: n > j + 3, 4.0),
        'E': column(lambda j: j < n, 5.0),
        'F': column(lambda j: j * (n - j) < (n * n - 9) // 4 + 1, 6.0),
    }


# row-slices.tile: C = A B - the row maximum over the block's 64 columns
# (zeros past N, which the zero-filled B gives, included) + 2 Bias[column];
# Rowmax[m, bx] that maximum; Colvec = 2 Bias.

def row_slices(run):
    m, n, k = run.dims['M'], run.dims['N'], run.dims['K']
    a, b, bias = run.inputs['A'], run.inputs['B'], run.inputs['Bias']
    r = rounding(run.dtype('C'))
    blocks = (n + 63) // 64
    sums = [[math.fsum(a[i * k + kk] * b[kk * n + j] for kk in range(k))
             for j in range(n)] for i in range(m)]
    row_max = [[max(sums[i][j] if j < n else 0.0
                    for j in range(64 * bx, 64 * bx + 64))
                for bx in range(blocks)] for i in range(m)]
    values, errors = [], []
    for i in range(m):
        for j in range(n):
            scale = math.fsum(abs(a[i * k + kk] * b[kk * n + j])
                              for kk in range(k))
            values.append(r(sums[i][j] - row_max[i][j // 64] +
                            f32(bias[j] * 2.0)))
            errors.append(2 * SUM_ERROR * (scale + abs(row_max[i][j // 64])))
    maxima = [x for row in row_max for x in row]
    return {'C': Approximate(values, errors),
            'Rowmax': Approximate(maxima, [SUM_ERROR * abs(x) + 1e-30
                                           for x in maxima]),
            'Colvec': [f32(x * 2.0) for x in bias]}


# local-copies.tile

def local_weights(run):
    n = run.dims['N']
    x, w = run.inputs['X'], run.inputs['W']

    def element(i):
        left = x[i - 1] if i >= 1 else 0.0
        right = x[i + 1] if i + 1 < n else 0.0
        return f32(f32(f32(w[0] * left) + f32(w[1] * x[i])) + f32(w[2] * right))
    return {'Y': [element(i) for i in range(n)]}


def local_tiles(run):
    r = rounding(run.dtype('Y'))
    doubled = [r(2.0 * r(f16(x))) for x in run.inputs['X']]
    return {'Y': doubled, 'Z': doubled}


def local_long_rows(run):
    m, n = run.dims['M'], run.dims['N']
    x = run.inputs['X']

    def element(row, column):
        source = 299 - column
        return x[row * n + source] if source < n else 0.0
    return {'Y': [element(i, j) for i in range(m) for j in range(n)]}


# shared-read-barriers.tile

def chunk_sums(run):
    n = run.dims['N']
    x = run.inputs['X']

    def element(index):
        block, i = index - index % 256, index % 256
        half = f32(0.5 * (255 - i))
        if i >= 64:
            return half
        total = 0.0
        for k in range(4):
            source = block + k * 64 + i
            total = f32(total + (x[source] if source < n else 0.0))
        return f32(total + half)
    return {'Y': [element(i) for i in range(n)]}
