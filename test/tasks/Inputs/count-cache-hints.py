"""Prints, per kernel of a bundle's PTX, how many loads carry an evict_last
and an evict_first L2 policy, with the kernel's spill stores from the
`kbench compile --json` report: count-cache-hints.py KERNEL_PTX REPORT_JSON."""
import json
import re
import sys

ptx = open(sys.argv[1]).read()
report = json.load(open(sys.argv[2]))
spills = {k["name"]: k["resources"]["spill_stores"]
          for k in report["manifest"]["kernels"]}
for part in re.split(r"(?=\.visible \.entry )", ptx)[1:]:
    name = re.match(r"\.visible \.entry (\w+)", part).group(1)
    last = len(re.findall(r"ld\.global\.L1::evict_last\.L2::cache_hint", part))
    first = len(re.findall(r"ld\.global\.L1::evict_first\.L2::cache_hint", part))
    print("%s last=%d first=%d spills=%d" % (name, last, first, spills[name]))
