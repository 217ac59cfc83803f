"""Reading the benchmark parts' logs (.local/bench-logs): shared by goals.py and scale-table.py."""
import pathlib
import re

# The read endpoints as Benchmarks/reads.sh names its runs and labels its result lines.
READS = [
    ("subscriptions", "GET /v1/subscriptions"),
    ("subscribers", "GET /v1/subscribers"),
    ("entitlements", "GET /v1/subscribers/{id}/entitlements"),
    ("eligibility", "POST /v1/eligibility"),
]


def read_log(directory, name):
    """The text of LOG_DIR/NAME.log, or "" when that part did not run."""
    path = pathlib.Path(directory) / f"{name}.log"
    return path.read_text(errors="replace") if path.exists() else ""


def search(pattern, text):
    """The groups of `pattern`'s first match in `text` (multi-line), or None."""
    match = re.search(pattern, text, re.MULTILINE)
    return match.groups() if match else None
