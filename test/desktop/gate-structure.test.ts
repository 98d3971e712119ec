// The judge reads structure first, on a real GTK 3 window (test/fixtures/dialogs/gtk3_structure.py):
// a tab named "Delete account", a toggle, a menu button and a find bar's Close commit nothing whatever
// their words, and are pressed with no person to ask; a command whose words no lexicon reads
// ("Vrandosk now") is refused and never reaches the app. The app's own log says what happened.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { findWaiting, gatedContext, HANG_MS, type StartedApp, startApp, toolCaller } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-structure-"));
const title = `Gate structure ${process.pid}`;
const log = join(dir, "structure.log");
const logged = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);

async function untilLogged(line: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!logged().includes(line) && Date.now() < deadline) await sleep(100);
  assert.ok(logged().includes(line), `${line} was logged: ${JSON.stringify(logged())}`);
}

describe("the judge on a GTK 3 window: structure first, fail closed on words it cannot read", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  const ref = async (role: string, name: string) =>
    ((await findWaiting(call, title, { role, name }, HANG_MS)) as { ref: string }).ref;
  const intent = "Use the window";

  before(() => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_structure.py", title, log]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a tab, a toggle, a menu button and a find bar's Close pass, whatever their words, and take effect", async () => {
    const tab = await call("click", { ref: await ref("page tab", "Delete account"), intent });
    assert.ok(tab.ok && tab.data.status !== "refused", JSON.stringify(tab.data ?? tab.error));
    await untilLogged("page 1");
    const toggled = await call("click", { ref: await ref("toggle button", "Paid only"), intent });
    assert.ok(toggled.ok && toggled.data.status !== "refused", JSON.stringify(toggled.data ?? toggled.error));
    await untilLogged("toggle True");
    const closed = await call("click", { ref: await ref("push button", "Close"), intent });
    assert.ok(closed.ok && closed.data.status !== "refused", JSON.stringify(closed.data ?? closed.error));
    await untilLogged("bar closed");
  });

  it("a command whose words no lexicon reads is refused and never pressed; a plain one passes", async () => {
    const strange = await call("click", { ref: await ref("push button", "Vrandosk now"), intent });
    assert.ok(strange.ok && strange.data.status === "refused", JSON.stringify(strange.data ?? strange.error));
    assert.match(String(strange.data.reason), /cannot read "vrandosk" as harmless/);
    const refresh = await call("click", { ref: await ref("push button", "Refresh"), intent });
    assert.ok(refresh.ok && refresh.data.status !== "refused", JSON.stringify(refresh.data ?? refresh.error));
    await untilLogged("Refresh");
    await sleep(300);
    assert.ok(!logged().includes("Vrandosk now"), `not pressed: ${JSON.stringify(logged())}`);
  });
});
