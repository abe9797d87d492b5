#!/usr/bin/env python3
"""Prints one line per kernel metadata file in OUT_DIR compiled from SPEC."""

import json
import os
import sys


def main():
    out_dir, spec = sys.argv[1], os.path.abspath(sys.argv[2])
    for name in sorted(os.listdir(out_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(out_dir, name)) as f:
            meta = json.load(f)
        if os.path.abspath(meta["source"]["path"]) != spec:
            continue
        res, launch = meta["resources"], meta["launch"]
        binaries = ", ".join(b["file"] for b in meta["binaries"])
        grid = " x ".join(launch["grid"])
        print(f"{meta['name']} {meta['arch']}: {res['registers']} regs, "
              f"{res['spill_stores']}+{res['spill_loads']} B spilled, "
              f"{res['static_smem'] + launch['dynamic_smem']} B smem, "
              f"grid {grid}, {launch['block'][0]} threads -> {binaries}")


if __name__ == "__main__":
    main()
