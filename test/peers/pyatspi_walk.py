#!/usr/bin/python3
"""The peer deskhand is measured against: a plain pyatspi walk of one window.

Usage: pyatspi_walk.py --pid PID [--frame-index N] [--extents] [--repeat N] [--skip-tables] [--huge 5000]
Prints one JSON object: {"nodes": [[depth, role, name, childCount], ...], "times_ms": [...], "setup_ms": N}.
Run it with Debian's own /usr/bin/python3, where python3-pyatspi lives.
"""
import argparse
import json
import time

import pyatspi
from peer_common import find_app

parser = argparse.ArgumentParser()
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--frame-index", type=int, default=0)
parser.add_argument("--extents", action="store_true")
parser.add_argument("--repeat", type=int, default=1)
parser.add_argument("--skip-tables", action="store_true", help="do not walk the cells of a table")
parser.add_argument("--huge", type=int, default=5000, help="do not walk children of a node with more")
args = parser.parse_args()




def walk(acc, depth, out):
    role = acc.getRole()
    count = acc.childCount
    entry = [depth, int(role), acc.name, count]
    if args.extents:
        try:
            e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            entry.append([e.x, e.y, e.width, e.height])
        except NotImplementedError:
            entry.append(None)
    out.append(entry)
    if count > args.huge:
        return
    if args.skip_tables and role in (pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE_TABLE):
        return
    for i in range(count):
        child = acc.getChildAtIndex(i)
        if child is not None:
            walk(child, depth + 1, out)


# Not in the walk's time: finding the app and its window, where libatspi, on first touching the app,
# fetches the app's whole cache (Cache.GetItems) and then answers role, name and children from it.
setup_start = time.perf_counter()
app = find_app(args.pid)
frame = app.getChildAtIndex(args.frame_index)
setup_ms = (time.perf_counter() - setup_start) * 1000
times = []
nodes = []
for _ in range(args.repeat):
    nodes = []
    start = time.perf_counter()
    walk(frame, 0, nodes)
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps({"nodes": nodes, "times_ms": times, "setup_ms": setup_ms}))
