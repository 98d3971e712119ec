#!/usr/bin/python3
"""The peer for bench/act: the round trip deskhand makes (verify, act, re-read), done with pyatspi.

Usage: pyatspi_act.py --pid PID --frame-index N --path 0,2,1 --action invoke|set_value [--text T] --repeat N
Prints {"times_ms": [...]}: one time per round trip, in one warm process.
"""
import argparse
import json
import time

import pyatspi

parser = argparse.ArgumentParser()
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--frame-index", type=int, default=0)
parser.add_argument("--path", default="")
parser.add_argument("--action", choices=["invoke", "set_value"], required=True)
parser.add_argument("--text", default="peer")
parser.add_argument("--repeat", type=int, default=9)
args = parser.parse_args()

desktop = pyatspi.Registry.getDesktop(0)
app = next(a for a in desktop if a is not None and a.get_process_id() == args.pid)
path = [int(i) for i in args.path.split(",") if i != ""]

times = []
for i in range(args.repeat):
    start = time.perf_counter()
    # Verify: resolve the element again and read what a fingerprint holds.
    acc = app.getChildAtIndex(args.frame_index)
    for index in path:
        acc = acc.getChildAtIndex(index)
    _ = (acc.getRole(), acc.name, acc.getIndexInParent(), acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
    # Act.
    if args.action == "invoke":
        acc.queryAction().doAction(0)
    else:
        acc.queryEditableText().setTextContents(f"{args.text} {i}")
    # Re-read.
    _ = (acc.getState().getStates(), acc.name)
    if args.action == "set_value":
        text = acc.queryText()
        _ = text.getText(0, text.characterCount)
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps({"times_ms": times}))
