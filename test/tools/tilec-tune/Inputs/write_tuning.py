"""Writes PKG/tuning.json choosing VARIANT (for ARCH) at one shape, as
tile-bench tune would, with the SHA-256 of PKG/index.json (or the given
digest): write_tuning.py PKG VARIANT ARCH [INDEX_SHA256]."""

import hashlib
import json
import os
import sys

package, variant, arch = sys.argv[1:4]
with open(os.path.join(package, "index.json"), "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
if len(sys.argv) > 4:
    digest = sys.argv[4]
tuning = {"schema": "tilec.tuning/1", "kernel": "vector_add",
          "package": {"index_sha256": digest},
          "devices": [{"device": "NVIDIA H200", "arch": "sm_90",
                       "shapes": [{"dims": {"N": 4096},
                                   "best": {"variant": variant, "arch": arch,
                                            "median_ms": 0.01}}]}]}
with open(os.path.join(package, "tuning.json"), "w") as f:
    json.dump(tuning, f)
