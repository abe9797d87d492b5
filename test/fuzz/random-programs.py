#!/usr/bin/env python3
"""Differential check of the whole front end on random, mostly valid programs.

Generates random .tile kernels (typed expressions, every statement kind,
tiles of every scope), runs `tilec --emit=tile` on each and checks that

  * tilec exits with 0 or 1 (never a crash or an abort),
  * a program tilec accepts produces IR that the MLIR verifier accepts (a
    verifier message means semantic analysis let through something the
    dialect rejects),
  * that IR parses back with tile-opt,
  * the code generator (`--emit=ptx,json`) then compiles it or reports
    located errors (such as "... is not supported by the sm_90a code
    generator yet"), never a crash, an LLVM error or an unlocated message.

    test/fuzz/random-programs.py BUILD_DIR [COUNT [SEED]]

Exits with status 1 and prints the offending programs on any failure, and
also when fewer than MIN_ACCEPTED of the programs pass the front end or fewer
than MIN_COMPILED are compiled to PTX: a generator or a compiler that rejects
(almost) everything would otherwise pass without checking anything.
"""

import math
import os
import random
import re
import subprocess
import sys
import tempfile

ELEMENT_TYPES = ['f16', 'bf16', 'f32', 'f64', 'i8', 'i16', 'i32', 'i64',
                 'u8', 'u32', 'bool']
FLOATS = ['f16', 'bf16', 'f32', 'f64']
# The smallest fractions of the programs that must be accepted by the front
# end and compiled to PTX. Of 300 programs, seeds 1, 2 and 3 give 99, 115
# and 110 accepted (33-38%) and 77, 95 and 88 compiled (26-32%).
MIN_ACCEPTED = 0.20
MIN_COMPILED = 0.05


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.values = {}   # name -> scalar type
        self.buffers = {}  # name -> (scope, shape, element type)
        self.counter = 0

    def pick(self, items):
        return self.rng.choice(items)

    def fresh(self):
        self.counter += 1
        return 'v%d' % self.counter

    def literal(self, ty):
        if ty == 'bool':
            return self.pick(['true', 'false'])
        if ty in FLOATS:
            return self.pick(['0.5', '1.0', '2.0', '-inf', 'pi', '3'])
        return str(self.rng.randint(0, 9 if ty in ('i8', 'u8') else 100))

    def expr(self, ty, depth=0):
        names = [n for n, t in self.values.items() if t == ty]
        if depth > 3 or self.rng.random() < 0.3:
            if names and self.rng.random() < 0.7:
                return self.pick(names)
            return self.literal(ty)
        r = self.rng.random()
        if ty == 'bool':
            other = self.pick(['index', 'f32'] + list(self.values.values()))
            if other == 'bool':
                return '(%s %s %s)' % (self.expr('bool', depth + 1),
                                       self.pick(['&&', '||', '==']),
                                       self.expr('bool', depth + 1))
            return '(%s %s %s)' % (self.expr(other, depth + 1),
                                   self.pick(['<', '<=', '==', '!=', '>']),
                                   self.expr(other, depth + 1))
        if r < 0.4:
            ops = ['+', '-', '*'] + (['/'] if ty in FLOATS else [])
            return '(%s %s %s)' % (self.expr(ty, depth + 1), self.pick(ops),
                                   self.expr(ty, depth + 1))
        if r < 0.5 and ty in FLOATS:
            fn = self.pick(['exp', 'exp2', 'tanh', 'erf', 'abs', 'floor',
                            'ceil'])
            return '%s(%s)' % (fn, self.expr(ty, depth + 1))
        if r < 0.6:
            return '%s(%s, %s)' % (self.pick(['max', 'min']),
                                   self.expr(ty, depth + 1),
                                   self.expr(ty, depth + 1))
        if r < 0.7:
            return '(%s ? %s : %s)' % (self.expr('bool', depth + 1),
                                       self.expr(ty, depth + 1),
                                       self.expr(ty, depth + 1))
        if r < 0.85:
            source = self.pick(ELEMENT_TYPES + ['index'])
            return 'cast<%s>(%s)' % (ty, self.expr(source, depth + 1))
        if ty == 'index':
            return 'ceildiv(%s, %d)' % (self.expr(ty, depth + 1),
                                        self.rng.randint(1, 9))
        return '(-%s)' % self.expr(ty, depth + 1)

    def block(self, loop_vars, depth, out, indent):
        saved = dict(self.values)
        for _ in range(self.rng.randint(1, 5)):
            self.statement(loop_vars, depth, out, indent)
        self.values = saved

    def statement(self, loop_vars, depth, out, indent):
        r = self.rng.random()
        if r < 0.25:
            ty = self.pick(ELEMENT_TYPES + ['index'])
            value = self.expr(ty)
            if ty != 'bool':
                value = 'cast<%s>(%s)' % (ty, value)
            name = self.fresh()
            out.append('%slet %s = %s;' % (indent, name, value))
            self.values[name] = ty
        elif r < 0.45 and loop_vars:
            targets = [b for b, (_, shape, _) in self.buffers.items()
                       if len(shape) == len(loop_vars)]
            if targets:
                name = self.pick(targets)
                out.append('%s%s[%s] = %s;' % (
                    indent, name, ', '.join(loop_vars),
                    self.expr(self.buffers[name][2])))
        elif r < 0.55 and depth < 3:
            out.append('%sif %s {' % (indent, self.expr('bool')))
            self.block(loop_vars, depth + 1, out, indent + '  ')
            out.append('%s} else {' % indent)
            self.block(loop_vars, depth + 1, out, indent + '  ')
            out.append('%s}' % indent)
        elif r < 0.65 and depth < 3:
            var = self.fresh()
            out.append('%sfor %s in %s(%d) {' % (
                indent, var, self.pick(['serial', 'unroll']),
                self.rng.randint(0, 4)))
            self.values[var] = 'index'
            self.block(loop_vars, depth + 1, out, indent + '  ')
            del self.values[var]
            out.append('%s}' % indent)
        elif r < 0.8 and not loop_vars and depth < 2:
            tiles = [(b, shape) for b, (scope, shape, _) in self.buffers.items()
                     if scope in ('fragment', 'shared')]
            if tiles:
                _, shape = self.pick(tiles)
                names = [self.fresh() for _ in shape]
                out.append('%sfor %s in parallel(%s) {' % (
                    indent, ', '.join(names), ', '.join(map(str, shape))))
                for n in names:
                    self.values[n] = 'index'
                self.block(names, depth + 1, out, indent + '  ')
                for n in names:
                    del self.values[n]
                out.append('%s}' % indent)
        elif not loop_vars:
            name, (_, shape, elem) = self.pick(list(self.buffers.items()))
            r = self.rng.random()
            if r < 0.3:
                out.append('%sclear(%s);' % (indent, name))
            elif r < 0.6:
                out.append('%sfill(%s, %s);' % (indent, name, self.expr(elem)))
            elif r < 0.7:
                peers = [b for b, (_, s, _) in self.buffers.items()
                         if s == shape and b != name]
                if peers:
                    out.append('%scopy(%s, %s);' % (indent, name,
                                                    self.pick(peers)))
            elif r < 0.8:
                # A region of a global tensor, in either direction: A (t[M,
                # K]) for tiles of rank 1 or 2, B (f32[K]) for rank 1.
                tensor = 'A' if len(shape) == 2 or self.rng.random() < 0.5 \
                    else 'B'
                if tensor == 'A':
                    region = 'A[bx * bm, %s]' % self.pick(['0', 'by', '3'])
                else:
                    region = 'B[%s]' % self.pick(['0', 'by', 'by * 2 + 1'])
                if len(shape) <= (2 if tensor == 'A' else 1):
                    pair = (region, name) if self.rng.random() < 0.5 \
                        else (name, region)
                    out.append('%scopy(%s, %s);' % ((indent,) + pair))
            else:
                out.append('%sprint(%s);' % (
                    indent, self.expr(self.pick(ELEMENT_TYPES))))

    def program(self):
        out = ['fn helper(x: f32, y: index) -> f32 { let z = x * 2.0; '
               'return z + cast<f32>(y); }',
               'kernel k<bm = %d, t = %s, flag = %s>(A: t[M, K], B: f32[K], '
               's: f32, n: i32, b: bool) {' % (
                   self.pick([16, 32, 64]), self.pick(ELEMENT_TYPES),
                   self.pick(['true', 'false'])),
               '  with kernel(ceildiv(M, bm), K, threads = %d) as (bx, by) {'
               % self.pick([32, 64, 128, 256])]
        self.values.update({'s': 'f32', 'n': 'i32', 'b': 'bool',
                            'bx': 'index', 'by': 'index', 'M': 'index',
                            'K': 'index', 'bm': 'index', 'flag': 'bool'})
        for i in range(self.rng.randint(1, 4)):
            scope = self.pick(['fragment', 'shared', 'local'])
            shape = [self.pick([4, 8, 16])
                     for _ in range(self.rng.randint(1, 2))]
            elem = self.pick(ELEMENT_TYPES)
            out.append('    let buf%d = alloc_%s([%s], %s);' % (
                i, scope, ', '.join(map(str, shape)), elem))
            self.buffers['buf%d' % i] = (scope, shape, elem)
        self.block(None, 0, out, '    ')
        out += ['  }', '}']
        return '\n'.join(out) + '\n'


CRASH_MARKERS = ['LLVM ERROR', 'Assertion', 'Stack dump', 'PLEASE submit',
                 'terminate called', 'UNREACHABLE']


def codegen_problem(path, run):
    """What is wrong with a run of the code generator on `path`, if any."""
    if run.returncode not in (0, 1):
        return 'code generator exit status %d' % run.returncode
    for marker in CRASH_MARKERS:
        if marker in run.stderr:
            return 'code generator crashed (%s)' % marker
    errors = [line for line in run.stderr.split('\n') if ': error: ' in line]
    if run.returncode == 0 and errors:
        return 'code generator succeeded with errors'
    if run.returncode == 1 and not errors:
        return 'code generator failed without an error'
    located = re.compile(re.escape(path) + r':\d+:\d+: error: ')
    if any(not located.match(line) for line in errors):
        return 'code generator error without a location'
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    tilec = os.path.join(build, 'tools', 'tilec', 'tilec')
    tile_opt = os.path.join(build, 'tools', 'tile-opt', 'tile-opt')
    failures = accepted = lowered = 0
    with tempfile.TemporaryDirectory() as scratch:
        for i in range(count):
            source = Generator(seed * 1000003 + i).program()
            path = os.path.join(scratch, 'p%d.tile' % i)
            with open(path, 'w') as f:
                f.write(source)
            run = subprocess.run([tilec, path, '--emit=tile'],
                                 capture_output=True, text=True, timeout=60)
            problem = None
            if run.returncode not in (0, 1):
                problem = 'exit status %d' % run.returncode
            elif "' op " in run.stderr:
                problem = 'verifier rejected the generated IR'
            elif run.returncode == 0:
                accepted += 1
                parse = subprocess.run([tile_opt, '-split-input-file'],
                                       input=run.stdout, capture_output=True,
                                       text=True, timeout=60)
                if parse.returncode != 0:
                    problem = 'tile-opt could not parse the IR'
                else:
                    run = subprocess.run([tilec, path, '--emit=ptx,json'],
                                         capture_output=True, text=True,
                                         timeout=60)
                    problem = codegen_problem(path, run)
                    lowered += run.returncode == 0
            if problem:
                failures += 1
                print('FAIL (%s): program %d\n%s\n%s' % (
                    problem, i, source, run.stderr[-2000:]))
    print('%d programs, %d accepted, %d compiled, %d failures' % (
        count, accepted, lowered, failures))
    for what, number, fraction in (('accepted', accepted, MIN_ACCEPTED),
                                   ('compiled', lowered, MIN_COMPILED)):
        if number < fraction * count:
            failures += 1
            print('FAIL: only %d of %d programs %s, expected at least %d '
                  '(%d%%)' % (number, count, what,
                              math.ceil(fraction * count), fraction * 100))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
