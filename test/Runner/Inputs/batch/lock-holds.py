# Reads the timing-lock holds ("timing_lock" of report.json) of every report
# under the folders given and says whether any two overlap in time.
import json, pathlib, sys

holds = []
for folder in sys.argv[1:]:
    for report in sorted(pathlib.Path(folder).glob("*/report.json")):
        lock = json.loads(report.read_text()).get("timing_lock")
        if lock:
            holds.append((lock["acquired_at"], lock["released_at"], str(report)))
holds.sort()
overlaps = sum(1 for a, b in zip(holds, holds[1:]) if b[0] < a[1])
print(f"holds: {len(holds)}, overlapping: {overlaps}")
