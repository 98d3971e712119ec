// The judge's classes on a real Swing window (test/fixtures/swing/DeskhandGate.java), judged through the
// real tools with no person to ask: what structure says is harmless passes whatever its words and
// the app's log shows it happened; what commits is refused and the log shows it never happened; a
// password and a card number typed in reach no journal line, recording or reply.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { commitsRefused, passed, secretsKeptOut, TOOK_LINES, untilLogged } from "./gate-classes.js";
import {
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startSwingFixture,
  toolCaller,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-classes-swing-"));
const title = `Gate classes Swing ${process.pid}`;
const log = join(dir, "swing.log");
const intent = "Use the window";

describe("the judge's classes on a Swing window", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  type Match = { ref: string; name: string | null; bounds: { x: number; y: number } | null };
  const element = async (query: Record<string, unknown>) =>
    (await findWaiting(call, title, query, HANG_MS)) as Match;
  const all = async (query: Record<string, unknown>) =>
    (await call("find", { target: { kind: "title", glob: title }, limit: 50, ...query })).data
      .matches as Match[];

  before(async () => {
    app = startSwingFixture("DeskhandGate", [title, log]);
    await element({ role: "slider", name: "Slide to pay" });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("by structure, whatever the words: a tab, a sortable column, a toggle, a find bar's Close, Enter in a search field", async () => {
    passed(
      await call("click", { ref: (await element({ role: "page tab", name: "Delete" })).ref, intent }),
      "Delete",
    );
    await untilLogged(log, "page 1");
    // The header's label is what a person clicks: the header sorts the table. The ATK wrapper gives it
    // no height, so it is clicked at its top edge, where the header is drawn.
    const header = await element({ role: "label", name: "Send" });
    const at = { space: "global", x: header.bounds!.x + 20, y: header.bounds!.y + 8 };
    passed(await call("click", { at, intent }), "Send");
    await untilLogged(log, "sorted");
    passed(
      await call("click", { ref: (await element({ role: "toggle button", name: "Pay" })).ref, intent }),
      'the toggle "Pay"',
    );
    await untilLogged(log, "toggle true");
    const search = await element({ role: "text", name: "Search" });
    passed(await call("key", { ref: search.ref, key: "Enter", intent }), "Enter in the search field");
    await untilLogged(log, "searched");
    passed(
      await call("click", { ref: (await element({ role: "push button", name: "Close" })).ref, intent }),
      "Close",
    );
    await untilLogged(log, "bar closed");
  });

  it("commits: a German command, an unnamed icon, symbols, Enter that activates the default, an option, a slider", async () => {
    // The ATK wrapper names a combo box by its choice.
    await commitsRefused({
      call,
      log,
      intent,
      element,
      all,
      command: { label: "Überweisung ausführen", word: /ausführen/i, logs: /transfer done/ },
      rows: "Keep rows",
    });
  });

  it("a password and a card number reach no journal line, recording or reply; plain text stays plain", async () => {
    await secretsKeptOut({
      call,
      element,
      title,
      dir,
      kit: "swing",
      field: "text",
      took: (what) => untilLogged(log, TOOK_LINES[what]),
    });
  });
});
