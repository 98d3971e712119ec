// Committing by meaning on a real app: a plain GTK 3 main window, where no structural rule can help,
// whose Korean "결제" (pay) button, a "Cancel subscription" and a "Paying" need a person and are not
// pressed (the app's own log of presses), while "다음" (next) and "Next" pass and are pressed.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pressEach } from "./labels-app.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-meanings-"));

describe("committing by meaning in a GTK 3 main window", () => {
  it("a Korean 결제 button needs a person and nothing is pressed; harmless labels pass", async () => {
    const results = await pressEach("gtk3", ["결제", "Cancel subscription", "Paying", "다음", "Next"], dir);
    const by = new Map(results.map((r) => [r.label, r]));
    for (const label of ["결제", "Cancel subscription", "Paying"]) {
      const r = by.get(label)!;
      assert.match(r.refused ?? "", /money leaves/, `${label} is refused as committing: ${r.refused}`);
      assert.equal(r.pressed, false, `${label} was not pressed`);
    }
    assert.match(by.get("결제")!.refused!, /person|confirm/i, "the refusal says a person must confirm");
    for (const label of ["다음", "Next"]) {
      const r = by.get(label)!;
      assert.equal(r.refused, undefined, `${label} passes: ${r.refused}`);
      assert.equal(r.pressed, true, `${label} was pressed`);
    }
  });
});
