// A GTK 2 app (gtk-demo, as GIMP 2.10 is GTK 2): it joins the accessibility bus only with the gail
// and atk-bridge modules, which the sandbox loads through GTK_MODULES. Its tree reads, and a tree
// row's own action opens the demo it names, read back as the window that appeared.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { HANG_MS, type StartedApp, startApp, toolCaller, windowId } from "./helpers.js";

const TITLE = "GTK+ Code Demos";

describe("a GTK 2 app in the sandbox", () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let app: StartedApp;
  before(() => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    app = startApp(["gtk-demo"]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("joins the bus, reads as a tree, and a row's action opens the demo it names", {
    timeout: HANG_MS * 2,
  }, async () => {
    const id = await windowId(call, TITLE);
    const listed = await call("windows", {});
    assert.equal(listed.data.windows.find((w: { id: number }) => w.id === id)?.toolkit, "GAIL");
    const found = await call("find", {
      target: { kind: "window", id },
      role: "table cell",
      name: "Button Boxes",
      search_tables: true,
    });
    assert.ok(found.ok && found.data.matches.length === 1, JSON.stringify(found.data ?? found.error));
    const acted = await call("act", {
      ref: found.data.matches[0].ref,
      action: { kind: "invoke" },
      intent: "Open the Button Boxes demo",
    });
    assert.ok(acted.ok, JSON.stringify(acted.error));
    assert.ok((await windowId(call, "Button Boxes")) > 0, "the demo's window opened");
  });
});
