// A fake desktop shaped like the Swing fixture, for core tests that need no real app.
import type { FakeDesktop, FakeElement } from "../../src/platform/fake/backend.js";

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
