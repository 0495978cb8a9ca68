#!/usr/bin/env python3
"""Stands in for `kbench search` in tests of scripts/search-live.sh step: it
writes no round and compiles nothing, but answers as a search that waits for
its next round does (exit 3, the pending folder in the JSON result), so the
script's own work (ingesting reports, pending.txt) can be checked in
milliseconds."""
import json
import sys

args = sys.argv[1:]
rounds = args[args.index("--rounds-dir") + 1]
print(json.dumps({"pending": rounds + "/round-0001"}))
print("kbench search: round-0001 is written to " + rounds, file=sys.stderr)
sys.exit(3)
