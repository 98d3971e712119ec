// The X11 hands: XTEST input, root-window pixels and EWMH window management on one connection of
// their own, so input never waits behind a slow accessibility read.
import { clipboardText, setClipboardText } from "../clipboard.js";
import { type Hands, HandsUnavailable } from "../hands.js";
import { X11Capture } from "./capture.js";
import { X11Connection } from "./connection.js";
import { X11Input } from "./input.js";
import { describeRecovered } from "./owners.js";
import { X11WindowControl } from "./window-control.js";

export interface X11HandsOptions {
  display: string | undefined;
  timeoutMs?: number;
  autoReleaseMs?: number;
}

export async function openX11Hands(options: X11HandsOptions): Promise<Hands> {
  if (!options.display)
    throw new HandsUnavailable("DISPLAY is not set: there is no X display to send input to or capture.");
  const x = await X11Connection.open(options.display, options.timeoutMs ?? 2000).catch((error: Error) => {
    throw new HandsUnavailable(error.message);
  });
  try {
    if (!(await x.hasExtension("XTEST")))
      throw new HandsUnavailable(
        `X display ${options.display} has no XTEST extension; start Xvfb with +extension XTEST.`,
      );
    const input = await X11Input.open(x, options.autoReleaseMs);
    const recovered = input.recovered ? describeRecovered(input.recovered) : undefined;
    if (recovered) process.stderr.write(`deskhand: on ${options.display}: ${recovered}\n`);
    const capture = new X11Capture(x);
    const windows = new X11WindowControl(x);
    const env = { ...process.env, DISPLAY: options.display };
    const hands: Hands = {
      name: "x11",
      recovered,
      get closed() {
        return x.closed;
      },
      autoReleaseMs: input.autoReleaseMs,
      move: (to) => input.move(to),
      click: (at, o) => input.click(at, o),
      drag: (from, to, o) => input.drag(from, to, o),
      wheel: (at, direction, notches) => input.wheel(at, direction, notches),
      chord: (chord, count) => input.chord(chord, count),
      type: (text) => input.type(text),
      exclusive: (work) => input.exclusive(work),
      buttonDown: (at, button) => input.buttonDown(at, button),
      buttonUp: (at, button) => input.buttonUp(at, button),
      keyDown: (chord) => input.keyDown(chord),
      keyUp: (chord) => input.keyUp(chord),
      held: () => input.held(),
      serverHeld: () => input.serverHeld(),
      screen: () => capture.screen(),
      capture: (region) => capture.capture(region),
      activeWindow: () => windows.activeWindow(),
      windowAt: (point) => windows.windowAt(point),
      activate: (id) => windows.activate(id),
      minimize: (id) => windows.minimize(id),
      hide: (id) => windows.hide(id),
      show: (id) => windows.show(id),
      closeWindow: (id) => windows.closeWindow(id),
      readClipboard: () => clipboardText(env, "x11"),
      writeClipboard: (text) => setClipboardText(env, text, "x11"),
      close: async () => {
        await input.releaseAll().catch(() => undefined);
        x.close();
      },
    };
    return hands;
  } catch (error) {
    x.close();
    throw error;
  }
}
