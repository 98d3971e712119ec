// A fake desktop shaped like the Swing fixture, for core tests that need no real app; and a tool
// context on fake windows and hands, for the input chain's tests.
import { join } from "node:path";
import {
  FakeBackend,
  type FakeDesktop,
  type FakeElement,
  type FakeWindow,
} from "../../src/platform/fake/backend.js";
import { FakeHands, type FakeHandsDesktop } from "../../src/platform/fake/hands.js";
import type { Role, State } from "../../src/platform/roles.js";
import type { Confirmer } from "../../src/safety/gate.js";
import type { SafetyLevel } from "../../src/safety/levels.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";

const button = (name: string): FakeElement => ({
  role: "push button",
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Component", "Action"],
});

export function fakeDesktop(): FakeDesktop {
  const rows = 200;
  const cells: FakeElement[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < 4; c++) cells.push({ role: "table cell", name: `r${r}c${c}` });
  return {
    pointerWindow: 2,
    windows: [
      {
        id: 1,
        title: "Fake Fixture",
        pid: 100,
        app: "fake",
        rect: { x: 0, y: 0, width: 800, height: 600 },
        focused: true,
        root: {
          role: "frame",
          name: "Fake Fixture",
          children: [
            {
              role: "panel",
              children: [
                button("Open dialog"),
                button("Reorder"),
                {
                  role: "text",
                  name: "Name",
                  text: "x".repeat(500),
                  interfaces: ["Accessible", "Component", "Text", "EditableText"],
                },
                {
                  role: "password text",
                  name: "Password",
                  text: "hunter2",
                  interfaces: ["Accessible", "Component", "Text"],
                },
                { role: "label", name: "Hidden", states: ["enabled", "visible"] },
                {
                  role: "check box",
                  name: "Subscribe",
                  unreadable: ["states"],
                  actions: ["click"],
                  interfaces: ["Accessible", "Action"],
                },
              ],
            },
            {
              role: "table",
              name: "Inventory",
              table: { rows, columns: 4 },
              childCount: rows * 4,
              children: cells,
            },
          ],
        },
      },
      {
        id: 2,
        title: "Other",
        pid: 200,
        app: "other",
        rect: { x: 10, y: 10, width: 100, height: 100 },
        root: { role: "frame", name: "Other", children: [button("OK")] },
      },
      { id: 3, title: "Opaque", pid: 300, app: "canvas", rect: { x: 0, y: 0, width: 50, height: 50 } },
    ],
  };
}

/**
 * A tool context on a fake desktop and fake hands (what the input chain's unit tests drive), its
 * journal and (absent) config in `dir`.
 */
export function fakeContext(options: {
  windows: FakeWindow[];
  hands: FakeHandsDesktop;
  dir: string;
  ceiling?: SafetyLevel;
  react?: FakeDesktop["react"];
  /** The person asked, where a test answers for one. */
  confirm?: Confirmer;
}): { backend: FakeBackend; hands: FakeHands; context: ToolContext } {
  const backend = new FakeBackend({
    windows: options.windows,
    ...(options.react ? { react: options.react } : {}),
  });
  const hands = new FakeHands(options.hands);
  const context = createContext({
    refLifetime: "while-verified",
    connect: async () => backend,
    connectHands: async () => hands,
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
    env: {
      ...process.env,
      DESKHAND_AUDIT: join(options.dir, "audit.jsonl"),
      DESKHAND_CONFIG: join(options.dir, "none.json"),
    },
  });
  return { backend, hands, context };
}

/** A window of the fake app (pid 11) titled `title`, its root a `role` holding `children`, in front. */
export function fakeWindow(
  title: string,
  children: FakeElement[],
  { id = 7, rect = { x: 0, y: 0, width: 400, height: 300 }, role = "frame" as FakeElement["role"] } = {},
): FakeWindow {
  return {
    id,
    title,
    pid: 11,
    app: "fake",
    rect,
    focused: true,
    root: { role, name: title, bounds: rect, children },
  };
}

/** A push button of the fake app that can be clicked, at `y` in its window. */
export function fakeButton(
  name: string,
  y: number,
  states: State[],
  { width = 200, height = 30 } = {},
): FakeElement {
  return {
    role: "push button",
    name,
    states,
    actions: ["click"],
    interfaces: ["Accessible", "Component", "Action"],
    bounds: { x: 20, y, width, height },
  };
}

/** One window titled `title` (id 7, pid 11) holding `children`, in front, on fake hands. */
export function oneWindow(title: string, children: FakeElement[], dir: string, role: Role = "frame") {
  const rect = { x: 0, y: 0, width: 400, height: 300 };
  return fakeContext({
    windows: [fakeWindow(title, children, { rect, role })],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
  });
}

/** A backend with one window (id 7, in front) whose tree is `root`, for judging keys against it. */
export function backendWithWindow(root: FakeElement): FakeBackend {
  const rect = { x: 0, y: 0, width: 400, height: 300 };
  return new FakeBackend({
    windows: [{ id: 7, title: "W", pid: 1, app: "fake", rect, focused: true, root }],
  });
}
