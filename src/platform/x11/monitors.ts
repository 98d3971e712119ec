// RandR 1.5's monitors, the screens of one X display as a desktop lays them out in its root window
// (randrproto.txt, "RRGetMonitors" and "RRSetMonitor"). The `x11` package speaks RandR up to 1.4, so
// these two requests are encoded here; nothing else of RandR is needed.
import type { Rect } from "../types.js";

const RR_GET_MONITORS = 42;
const RR_SET_MONITOR = 43;

export interface RawMonitor extends Rect {
  /** The monitor's name, an atom. */
  name: number;
  primary: boolean;
  /** Made by the server from an output, rather than set by a client. */
  automatic: boolean;
  outputs: number[];
}

/** RRGetMonitors for `root`, active monitors only. */
export function getMonitorsRequest(major: number, root: number): Buffer {
  const request = Buffer.alloc(12);
  request.writeUInt8(major, 0);
  request.writeUInt8(RR_GET_MONITORS, 1);
  request.writeUInt16LE(3, 2);
  request.writeUInt32LE(root >>> 0, 4);
  request.writeUInt8(1, 8);
  return request;
}

/** The monitors in an RRGetMonitors reply, as the `x11` package hands it: from its timestamp on. */
export function decodeMonitors(reply: Buffer): RawMonitor[] {
  const count = reply.readUInt32LE(4);
  const monitors: RawMonitor[] = [];
  let at = 24;
  for (let i = 0; i < count && at + 24 <= reply.length; i++) {
    const outputs = reply.readUInt16LE(at + 6);
    monitors.push({
      name: reply.readUInt32LE(at),
      primary: reply[at + 4] === 1,
      automatic: reply[at + 5] === 1,
      x: reply.readInt16LE(at + 8),
      y: reply.readInt16LE(at + 10),
      width: reply.readUInt16LE(at + 12),
      height: reply.readUInt16LE(at + 14),
      outputs: Array.from({ length: outputs }, (_, k) => reply.readUInt32LE(at + 24 + 4 * k)),
    });
    at += 24 + 4 * outputs;
  }
  return monitors;
}

/** RRSetMonitor: a monitor named by the atom `name` over `rect`, showing `outputs` (none: a part of one). */
export function setMonitorRequest(
  major: number,
  root: number,
  monitor: { name: number; primary: boolean; outputs: number[] } & Rect,
  dpi: number,
): Buffer {
  const request = Buffer.alloc(32 + 4 * monitor.outputs.length);
  request.writeUInt8(major, 0);
  request.writeUInt8(RR_SET_MONITOR, 1);
  request.writeUInt16LE(8 + monitor.outputs.length, 2);
  request.writeUInt32LE(root >>> 0, 4);
  request.writeUInt32LE(monitor.name, 8);
  request.writeUInt8(monitor.primary ? 1 : 0, 12);
  request.writeUInt16LE(monitor.outputs.length, 14);
  request.writeInt16LE(monitor.x, 16);
  request.writeInt16LE(monitor.y, 18);
  request.writeUInt16LE(monitor.width, 20);
  request.writeUInt16LE(monitor.height, 22);
  // Millimetres at the screen's dots per inch, so a toolkit that reads them gets that density.
  request.writeUInt32LE(Math.round((monitor.width * 25.4) / dpi), 24);
  request.writeUInt32LE(Math.round((monitor.height * 25.4) / dpi), 28);
  monitor.outputs.forEach((output, k) => {
    request.writeUInt32LE(output >>> 0, 32 + 4 * k);
  });
  return request;
}
