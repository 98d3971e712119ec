#!/usr/bin/python3
"""An OSWorld-style linearization of one window, the yardstick for deskhand's default snapshot.

Usage: osworld_linearize.py --pid PID [--frame-index N] [--huge 5000]
Prints one JSON object: {"text": "...", "chars": N, "kept": [[path, role, name, text], ...]}.
Run it with Debian's own /usr/bin/python3, where python3-pyatspi lives.

The approximation (OSWorld's desktop_env linearizes the AT-SPI tree of the whole screen): one line per
element that is on screen and has a name or text, as `role<TAB>name<TAB>text<TAB>position<TAB>size`
under a header line; on screen means `showing` and `visible` with an area on the screen (GTK 4.8,
which never reports `showing`, counts `visible` with an area). Text is cut at 200 characters; the
whole window is walked, below elements of more than --huge children excepted. `path` is the child
indices from the window, to match deskhand's refs.
"""
import argparse
import json

import pyatspi
from peer_common import find_app

parser = argparse.ArgumentParser()
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--frame-index", type=int, default=0)
parser.add_argument("--huge", type=int, default=5000)
args = parser.parse_args()




def text_of(acc):
    try:
        text = acc.queryText()
        return text.getText(0, min(text.characterCount, 200)).replace("\ufffc", "").strip()
    except NotImplementedError:
        return ""


def extents(acc):
    try:
        e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return e.x, e.y, e.width, e.height
    except NotImplementedError:
        return None


app = find_app(args.pid)
frame = app.getChildAtIndex(args.frame_index)
lines = ["role\tname\ttext\tposition (top-left x&y)\tsize (w&h)"]
kept = []


def walk(acc, path, reports_showing):
    states = acc.getState()
    showing = states.contains(pyatspi.STATE_SHOWING) or not reports_showing
    on_screen = showing and states.contains(pyatspi.STATE_VISIBLE)
    if path and on_screen:
        box = extents(acc)
        name = (acc.name or "").strip()
        text = text_of(acc)
        if box and box[2] > 0 and box[3] > 0 and box[0] >= 0 and box[1] >= 0 and (name or text):
            role = acc.getRoleName()
            lines.append(f"{role}\t{name}\t{text if text != name else ''}\t({box[0]}, {box[1]})\t({box[2]}, {box[3]})")
            kept.append([path, role, name, text])
    count = acc.childCount
    if count > args.huge:
        return
    for i in range(count):
        child = acc.getChildAtIndex(i)
        if child is not None:
            walk(child, path + [i], reports_showing)


def any_showing(acc, depth=0):
    if depth > 0 and acc.getState().contains(pyatspi.STATE_SHOWING):
        return True
    if depth > 6:
        return False
    return any(any_showing(acc.getChildAtIndex(i), depth + 1) for i in range(min(acc.childCount, 50)))


walk(frame, [], any_showing(frame))
text = "\n".join(lines)
print(json.dumps({"text": text, "chars": len(text), "kept": kept}))
