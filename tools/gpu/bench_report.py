"""How every GPU benchmark script ends: the table printed and written, the
results written as JSON with their failure count, and the exit status."""

import json


def finish(results, lines, failures, what, json_path, table_path=None):
    """Appends the correctness line (`what` the checks passed), writes
    `results` (with "failures") to `json_path` and the table to `table_path`
    (if given), prints the table; returns the exit status."""
    lines.append(f"correctness: {len(results['checks']) - failures} of "
                 f"{len(results['checks'])} {what}")
    table = "\n".join(lines)
    results["failures"] = failures
    with open(json_path, "w") as out:
        json.dump(results, out, indent=1)
    if table_path:
        with open(table_path, "w") as out:
            out.write(table + "\n")
    print(table)
    return 1 if failures else 0
