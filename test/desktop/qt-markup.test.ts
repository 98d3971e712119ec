// KCalc (Qt 5, KDE Frameworks) writes its keys in rich-text markup, and Qt hands the markup over as
// their names: "x<sup>2</sup>". They read as drawn ("x²"), so find names them as a person does,
// and the key found so is pressed: 3, x², and the display reads 9. Its keys are shortcuts of its
// buttons, which take a key pressed again within 100 ms once: typed, each key counts.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import {
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  settled,
  startApp,
  toolCaller,
} from "./helpers.js";

describe("a Qt app's names in markup read as drawn", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-kcalc-"));
  const title = "*KCalc*";
  const target = { kind: "title", glob: title };
  let app: StartedApp;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;

  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["kcalc"]);
    await findWaiting(call, title, { role: "push button", name: "3" }, HANG_MS);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("KCalc's x<sup>2</sup> is x², found and pressed by that name; no name shows markup", async () => {
    const keys = await call("find", { target, role: "push button", include_off_screen: true, limit: 100 });
    const names = (keys.data.matches as { name: string | null }[]).map((m) => m.name ?? "");
    assert.ok(names.includes("x²"), names.join(" "));
    assert.deepEqual(
      names.filter((n) => /<\/?\w+>|^[a-z]+;/u.test(n)),
      [],
      "no name keeps its markup or a mnemonic-eaten entity",
    );
    for (const key of ["3", "x²"]) {
      const pressed = await call("act", {
        find: { target, role: "push button", name: key, include_off_screen: true },
        action: { kind: "invoke" },
        intent: `Press ${key}`,
      });
      assert.equal(pressed.data?.status ?? (pressed.ok ? "done" : undefined), "done", pressed.text);
    }
    const display = await settled(
      async () => ((await call("find", { target, role: "frame", name: "9" })).data.total as number) > 0,
      (shown) => shown,
      5000,
    );
    assert.ok(display, "the display reads 9");
  });

  it("typed keys reach KCalc's buttons each time, a key typed twice in a row too", async () => {
    const display = (name: string) =>
      settled(
        async () => ((await call("find", { target, role: "frame", name })).data.total as number) > 0,
        (shown) => shown,
        5000,
      );
    // Burst, "144/12=" came out "14/2=": 7.
    const typed = await call("type_text", { window: { title }, text: "144/12=", intent: "Divide 144 by 12" });
    assert.ok(typed.ok, typed.text);
    assert.ok(await display("12"), "the display reads 12");
    // Its display is a frame with no text: the reply says what its name reads after the keys.
    assert.match(typed.text ?? "", /its name reads "12" now \(a display shows its result so\)/, typed.text);
    const pressed = await call("key", { window: { title }, key: "4", count: 3, intent: "Enter 444" });
    assert.ok(pressed.ok, pressed.text);
    assert.ok(await display("444"), "the display reads 444");
  });
});
