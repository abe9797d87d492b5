#!/usr/bin/env python3
"""Checks random cases of the specs' kernels on the host, no GPU needed.

    tools/scripts/host-sweep.py [--kernels rows,gemm,attention] [--cases N]
                                [--seed S] [--build DIR]

Each case draws a kernel of specs/, a configuration (those
tools/gpu/compile_rows.sh and compile_gemm.sh benchmark), an odd shape, a
dtype, --fast-math or not, an architecture (sm_80 or sm_90a), the order in
which a block's threads run (forward, reverse, shuffled) and, for a
persistent sm_90a GEMM, sometimes fewer blocks than tiles, runs it
with tile-host-run through test/codegen/host/Inputs/host-check.py (every
thread of the grid on the CPU, global accesses checked, outputs compared with
the Python references) and prints `ok` or `FAIL` with the command. Use it
after a change to the code generator, beside the lit tests (which keep a
fixed set of these cases): the draws reach shapes and configurations the
lit tests do not. Exits 1 if any case failed.
"""

import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SPECS = os.path.join(ROOT, 'specs')
HOST_CHECK = os.path.join(ROOT, 'test', 'codegen', 'host', 'Inputs',
                          'host-check.py')

ROW_CONFIGS = ['block_N=1024 threads=128', 'block_N=4096 threads=256',
               'block_N=4096 threads=512', 'block_N=8192 threads=256',
               'block_N=8192 threads=512', 'block_N=8192 threads=1024',
               'block_N=16384 threads=1024', 'block_N=32768 threads=1024']
MULTIROW_CONFIGS = ['block_M=4 block_N=1024 threads=128',
                    'block_M=8 block_N=1024 threads=256',
                    'block_M=16 block_N=1024 threads=512',
                    'block_M=2 block_N=4096 threads=256',
                    'block_M=4 block_N=4096 threads=512',
                    'block_M=2 block_N=8192 threads=512']
ROW_SUM_CONFIGS = ['', 'block_M=1 threads=1024', 'block_M=16 threads=512',
                   'block_M=1 block_N=4096 threads=256',
                   'block_M=2 threads=768']
GEMM_CONFIGS = ['', 'block_N=256 threads=256', 'block_K=64',
                'block_N=256 block_K=64 threads=256', 'block_K=64 stages=4',
                'stages=4', 'block_K=64 stages=2', 'block_M=64 block_N=64']
WGMMA_CONFIGS = ['block_M=256 block_K=64 threads=256',
                 'block_M=256 block_K=64 stages=4 threads=256',
                 'block_N=256 block_K=64 stages=4 threads=256',
                 'block_N=256 stages=6 threads=256', 'stages=6',
                 'block_K=64 stages=4 threads=256',
                 'block_N=64 block_K=128 stages=4 threads=256',
                 'block_M=64 block_K=64 stages=8 threads=256']


def defines(config):
    return [arg for item in config.split() for arg in ('-D', item)]


def row_case(draw):
    spec = draw.choice(['softmax', 'softmax_online', 'rmsnorm', 'layernorm',
                        'row_sum'])
    if spec == 'row_sum':
        config = draw.choice(ROW_SUM_CONFIGS)
    elif spec == 'softmax':
        config = draw.choice(ROW_CONFIGS)
    else:
        config = draw.choice(ROW_CONFIGS + MULTIROW_CONFIGS)
    n = draw.choice([1, 2, 7, 8, 31, 33, 127, 1000, 1023, 1025, 4095, 4097,
                     8191, 8193, 50257])
    if spec == 'softmax':  # whole rows of at most block_N
        n = min(n, int(config.split()[0].split('=')[1]))
    args = [spec + '.tile'] + defines(config) + [
        '--dim', 'M=%d' % draw.choice([1, 2, 3, 5, 17]), '--dim', 'N=%d' % n]
    if spec.endswith('norm'):
        args += ['--scalar', 'eps=%g' % draw.choice([1e-5, 1e-6, 0.1])]
    if spec == 'layernorm' and draw.random() < 0.3:
        args += ['-D', 'has_bias=false']
    # layernorm's rows pipelined through shared memory: the stage count (4
    # stages of a 32768-column row exceed shared memory).
    if spec == 'layernorm' and draw.random() < 0.5:
        args += ['-D', 'stages=%d' % draw.choice(
            [2, 3] if 'block_N=32768' in config else [2, 3, 4])]
    if draw.random() < 0.3:
        args += ['-D', 'dtype=bf16']
    return args


def gemm_case(draw):
    arch = draw.choice(['sm_80', 'sm_90a'])
    spec = draw.choice(['gemm', 'gemm_nt', 'gemm_tn', 'gemm_tt',
                        'gemm_bias_gelu', 'gemm_bias_gelu_tanh'])
    config = ''
    if spec != 'gemm_bias_gelu_tanh':
        config = draw.choice(GEMM_CONFIGS +
                             (WGMMA_CONFIGS if arch == 'sm_90a' else []))
    sizes = [1, 8, 17, 64, 72, 127, 129, 136, 200, 264]
    m, n = draw.choice(sizes), draw.choice(sizes)
    k = draw.choice([8, 16, 24, 40, 64, 72, 136, 200])
    while m * n * k > 1500000:  # the Python reference's time
        k, m = max(8, k // 2), max(1, m // 2)
    args = [spec + '.tile', '--arch', arch] + defines(config) + [
        '--dim', 'M=%d' % m, '--dim', 'N=%d' % n, '--dim', 'K=%d' % k]
    r = draw.random()
    if r < 0.3:
        args += ['-D', 'dtype=bf16']
    elif r < 0.4 and 'bias' not in spec:
        args += ['-D', 'accum=f16']
    if arch == 'sm_90a' and draw.random() < 0.4:
        # Persistent blocks that loop over several tiles.
        args += ['--blocks', str(draw.randint(1, 3))]
    return args


def attention_case(draw):
    args = ['flash_attention.tile', '--arch',
            draw.choice(['sm_80', 'sm_90a']), '-D',
            'dim=%d' % draw.choice([64, 128]),
            '--dim', 'B=%d' % draw.choice([1, 2]),
            '--dim', 'H=%d' % draw.choice([1, 2]),
            '--dim', 'S=%d' % draw.choice([1, 17, 100, 129, 200]),
            '--scalar', 'scale=%g' % draw.choice([0.088, 0.125, 0.3])]
    if draw.random() < 0.4:
        args += ['-D', 'causal=true']
    if draw.random() < 0.3:
        args += ['-D', 'dtype=bf16']
    return args


CASES = {'rows': row_case, 'gemm': gemm_case, 'attention': attention_case}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--kernels', default='rows,gemm,attention')
    parser.add_argument('--cases', type=int, default=30)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--build', default=os.path.join(ROOT, 'build'))
    options = parser.parse_args()
    kinds = options.kernels.split(',')
    if any(kind not in CASES for kind in kinds):
        parser.error('--kernels takes a list of %s' % ', '.join(CASES))
    tool = os.path.join(options.build, 'tools', 'tile-host-run')
    if not os.path.exists(os.path.join(tool, 'tile-host-run')):
        parser.error('no tile-host-run in %s (build first)' % tool)
    env = dict(os.environ, PATH=tool + os.pathsep + os.environ['PATH'])
    draw = random.Random(options.seed)
    failed = 0
    for _ in range(options.cases):
        args = CASES[draw.choice(kinds)](draw)
        args[0] = os.path.join(SPECS, args[0])
        if draw.random() < 0.3:
            args.append('--fast-math')
        # Another schedule of the block's threads (a missing barrier shows).
        args += ['--thread-order',
                 draw.choice(['forward', 'reverse', 'shuffled'])]
        args += ['--seed', str(draw.randint(1, 1000))]
        result = subprocess.run([sys.executable, HOST_CHECK] + args,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        if '--blocks' in args and 'is not persistent' in result.stderr:
            # Not every configuration becomes persistent: one block a tile.
            index = args.index('--blocks')
            del args[index:index + 2]
            result = subprocess.run([sys.executable, HOST_CHECK] + args,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    env=env)
        ok = result.returncode == 0
        failed += not ok
        print('%s %s' % ('ok  ' if ok else 'FAIL', ' '.join(args)),
              flush=True)
        if not ok:
            print(result.stderr[-2000:], flush=True)
    print('%d of %d cases failed' % (failed, options.cases))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
