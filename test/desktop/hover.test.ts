// A hover and a wheel turn press nothing (issue 29): over a button that commits they stay L1, under
// a ceiling of L1 they are done, and the dialog is still there, unanswered. A click there is L3.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { findWaiting, type StartedApp, startApp, toolCaller } from "./helpers.js";

const TITLE = "Hover Probe";

describe("hover and wheel over a committing button", () => {
  let app: StartedApp;
  let low: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    low = createContext({ refLifetime: "while-verified", ceiling: "L1" });
    call = toolCaller(low);
    app = startApp([
      "zenity",
      "--question",
      `--title=${TITLE}`,
      "--text=Delete every file?",
      "--ok-label=Delete",
    ]);
    await findWaiting(call, TITLE, { role: "push button", name: "Delete" }, 30_000);
  });
  after(async () => {
    app.kill();
    await low.close();
  });

  it("a hover and a wheel over Delete are L1 and done; a click there is refused; nothing is pressed", async () => {
    const found = await call("find", {
      target: { kind: "title", glob: TITLE },
      role: "push button",
      name: "Delete",
    });
    const ref = found.data.matches[0].ref;
    const hovered = await call("hover", { ref, intent: "Point at Delete" });
    assert.equal(hovered.data.status, "done", hovered.text);
    assert.equal(hovered.data.level, "L1", hovered.text);
    const wheeled = await call("wheel", { ref, direction: "down", notches: 1, intent: "Scroll over Delete" });
    assert.equal(wheeled.data.status, "done", wheeled.text);
    assert.equal(wheeled.data.level, "L1", wheeled.text);
    const clicked = await call("click", { ref, intent: "Press Delete" });
    assert.equal(clicked.data.status, "refused", clicked.text);
    assert.equal(clicked.data.level, "L3", clicked.text);
    // The question is still asked: nothing answered it.
    const still = await call("windows", {});
    assert.ok(
      still.data.windows.some((w: { title: string }) => w.title === TITLE),
      still.text,
    );
    assert.equal(app.child.exitCode, null, "zenity has not exited");
  });
});
