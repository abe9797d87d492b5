#!/usr/bin/env python3
"""Looks into and damages a tilec compile cache, for the cache's lit tests.

    cache-tool.py entries CACHE
        one line per entry: the names of its files (sorted), sorted
    cache-tool.py path CACHE STEM
        the directory of the one entry with a file named STEM.*
    cache-tool.py size CACHE [--except STEM]
        the bytes the entries take (all files, the manifest too), without
        the entry of STEM
    cache-tool.py age CACHE STEM SECONDS
        marks the entry of STEM as last used SECONDS ago
    cache-tool.py corrupt CACHE STEM HOW
        damages the entry of STEM: `truncate` halves its first file, `flip`
        changes a byte of it, `delete` removes it, `manifest` overwrites the
        manifest with text that is not JSON, `no-manifest` removes it
    cache-tool.py fake-ptxas REAL LOG OUT [NOTE]
        writes OUT, a ptxas that appends its arguments to LOG and runs REAL;
        with NOTE, it then prints `ptxas info    : NOTE` on standard error
        where REAL succeeded (a numbered note such as ptxas makes on
        serialized wgmma)
    cache-tool.py parallel N COMMAND...
        runs N copies of COMMAND at once, `{}` in an argument replaced by the
        copy's number; fails if one does, printing its standard error
"""

import json
import os
import shlex
import subprocess
import sys
import time


def entries(cache):
    root = os.path.join(cache, "v1", "entries")
    if not os.path.isdir(root):
        return []
    return [os.path.join(root, name) for name in sorted(os.listdir(root))]


def manifest(entry):
    with open(os.path.join(entry, "manifest.json")) as f:
        return json.load(f)


def names(entry):
    return sorted(f["name"] for f in manifest(entry)["files"])


def find(cache, stem):
    found = [e for e in entries(cache)
             if any(n.startswith(stem + ".") for n in names(e))]
    if len(found) != 1:
        sys.exit("%d entries of %s in %s" % (len(found), stem, cache))
    return found[0]


def entry_size(entry):
    return sum(os.path.getsize(os.path.join(entry, n))
               for n in os.listdir(entry))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, cache, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if command == "parallel":
        runs = [subprocess.Popen([a.replace("{}", str(i)) for a in args],
                                 stderr=subprocess.PIPE)
                for i in range(int(cache))]
        failed = False
        for run in runs:
            _, err = run.communicate()
            sys.stderr.write(err.decode(errors="replace"))
            failed |= run.returncode != 0
        return 1 if failed else 0
    if command == "entries":
        for line in sorted(" ".join(names(e)) for e in entries(cache)):
            print(line)
    elif command == "path":
        print(find(cache, args[0]))
    elif command == "size":
        skip = find(cache, args[1]) if args[:1] == ["--except"] else None
        print(sum(entry_size(e) for e in entries(cache) if e != skip))
    elif command == "age":
        path = os.path.join(find(cache, args[0]), "manifest.json")
        when = time.time() - float(args[1])
        os.utime(path, (when, when))
    elif command == "corrupt":
        entry = find(cache, args[0])
        first = os.path.join(entry, manifest(entry)["files"][0]["stored"])
        how = args[1]
        if how == "truncate":
            with open(first, "rb") as f:
                data = f.read()
            with open(first, "wb") as f:
                f.write(data[:len(data) // 2])
        elif how == "flip":
            with open(first, "r+b") as f:
                f.seek(100)
                byte = f.read(1)
                f.seek(100)
                f.write(bytes([byte[0] ^ 1]))
        elif how == "delete":
            os.remove(first)
        elif how == "manifest":
            with open(os.path.join(entry, "manifest.json"), "w") as f:
                f.write("{ not json")
        elif how == "no-manifest":
            os.remove(os.path.join(entry, "manifest.json"))
        else:
            sys.exit("unknown damage " + how)
    elif command == "fake-ptxas":
        real, log, out = cache, args[0], args[1]
        note = args[2] if len(args) > 2 else None
        with open(out, "w") as f:
            f.write("#!/bin/sh\n"
                    f'echo "$*" >> {shlex.quote(log)}\n')
            if note is None:
                f.write(f'exec {shlex.quote(real)} "$@"\n')
            else:
                f.write(f'{shlex.quote(real)} "$@" || exit $?\n'
                        f'echo {shlex.quote("ptxas info    : " + note)} >&2\n')
        os.chmod(out, 0o755)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
