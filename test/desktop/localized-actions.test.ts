// An app shown in French names its actions in French where AT-SPI's GetActions is asked (at-spi2-atk
// hands out ATK's localized names: a GTK 3 toggle button's "click" is "Cliquer"); deskhand asks
// GetName for the toolkit's own. On a real GTK 3 window (test/fixtures/dialogs/gtk3_structure.py) in
// French: the toggle button lists its toggle, `act toggle` presses it, and the app's log says so. A
// JVM names a Swing button's sole action in its own language, GetName too ("Klicken"): a toggle
// button's sole action is its press, and toggles it (DeskhandGate.java under -Duser.language=de).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startApp,
  startSwingFixture,
  toolCaller,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-localized-actions-"));
const title = `Localized actions ${process.pid}`;
const log = join(dir, "structure.log");
const logged = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);

describe("actions of an app shown in another language", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;

  before(() => {
    // A container's usual locale, where gettext honours LANGUAGE.
    const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C.UTF-8", LANGUAGE: "fr" };
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_structure.py", title, log], env);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a French GTK 3 toggle button is toggled by `act toggle`, its actions named as the toolkit names them", async () => {
    const found = (await findWaiting(call, title, { role: "toggle button", name: "Paid only" }, HANG_MS)) as {
      ref: string;
    };
    const info = await call("element_info", { ref: found.ref });
    assert.ok(info.ok, JSON.stringify(info.error));
    assert.deepEqual(info.data.actions, ["click"], "GetName's name, not the French one");
    const toggled = await call("act", {
      ref: found.ref,
      action: { kind: "toggle" },
      intent: "Show paid only",
    });
    assert.ok(toggled.ok && toggled.data.status !== "refused", JSON.stringify(toggled.data ?? toggled.error));
    const deadline = Date.now() + HANG_MS;
    while (!logged().includes("toggle True") && Date.now() < deadline) await sleep(100);
    assert.ok(logged().includes("toggle True"), `the app toggled: ${JSON.stringify(logged())}`);
    assert.ok(toggled.data.after.states.includes("checked"), JSON.stringify(toggled.data.after));
  });

  it("a German Swing toggle button, whose only action the JVM names in German, is toggled by `act toggle`", async () => {
    const swingTitle = `Localized actions Swing ${process.pid}`;
    const swingLog = join(dir, "swing.log");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      JAVA_TOOL_OPTIONS: "-Duser.language=de -Duser.country=DE",
    };
    const swing = startSwingFixture("DeskhandGate", [swingTitle, swingLog], env);
    try {
      const found = (await findWaiting(
        call,
        swingTitle,
        { role: "toggle button", name: "Pay" },
        HANG_MS,
      )) as {
        ref: string;
      };
      const info = await call("element_info", { ref: found.ref });
      const toggled = await call("act", { ref: found.ref, action: { kind: "toggle" }, intent: "Pay toggle" });
      assert.ok(
        toggled.ok && toggled.data.status !== "refused",
        `${JSON.stringify(info.data?.actions)}: ${JSON.stringify(toggled.data ?? toggled.error)}`,
      );
      assert.ok(toggled.data.after.states.includes("checked"), JSON.stringify(toggled.data.after));
      // The French window, behind the Swing one the agent has seen, toggled back: the view is of
      // where the act went, not of the window in front.
      await call("observe", { target: { kind: "title", glob: swingTitle } });
      const paid = (await findWaiting(
        call,
        title,
        { role: "toggle button", name: "Paid only" },
        HANG_MS,
      )) as {
        ref: string;
      };
      const back = await call("act", {
        ref: paid.ref,
        action: { kind: "toggle" },
        intent: "Show all",
        view: true,
      });
      assert.ok(back.ok && back.data.status !== "refused", JSON.stringify(back.data ?? back.error));
      const view = (back.text ?? "").slice((back.text ?? "").indexOf("# view:"));
      assert.match(
        view,
        new RegExp(
          `^# view: window \\d+ "${title}" \\([^)]*\\), where you acted \\(window \\d+ "${swingTitle}"`,
        ),
        view,
      );
      assert.match(
        view,
        /^\d+\. toggle button "Paid only" \[ref=/m,
        `shown as it is now, not checked: ${view}`,
      );
      const deadline = Date.now() + HANG_MS;
      while (!logged().includes("toggle False") && Date.now() < deadline) await sleep(100);
      assert.ok(logged().includes("toggle False"), `the app toggled back: ${JSON.stringify(logged())}`);
    } finally {
      swing.kill();
    }
  });
});
