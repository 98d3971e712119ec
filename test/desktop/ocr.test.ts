// Text from pixels on real apps: a GTK 3 drawing area and a Swing panel paint known words (sizes, light
// on dark, digits, German) that their trees do not expose; each fixture writes where it drew every word.
// read_screen_text must return at least 95% of them exactly, each box within 3 px of the ink; find_text's
// centre, clicked, must land on the word (the fixture says which word it got); a password field whose
// text is on screen must never be read; snapshots mark the painted surfaces, and find says so.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { prepareForOcr } from "../../src/core/ocr-image.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { TesseractRecognizer } from "../../src/platform/ocr/tesseract.js";
import { openX11Hands } from "../../src/platform/x11/hands.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { connect, SWING_COMMAND, toolCaller } from "./helpers.js";

interface DrawnWord {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Report {
  words: DrawnWord[];
  clicked: string | null;
  secret: string;
}
interface Word {
  text: string;
  box: { x: number; y: number; width: number; height: number };
}

const dir = mkdtempSync(join(tmpdir(), "deskhand-ocr-"));
const GTK = { title: "Canvas Fixture", report: join(dir, "gtk3.json") };
const SWING = { title: "Swing Canvas", report: join(dir, "swing.json") };

async function startApp(backend: AtspiBackend, command: string[], title: string): Promise<ChildProcess> {
  const child = spawn(command[0]!, command.slice(1), { stdio: "ignore", detached: true });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const window = (await backend.listWindows()).find((w) => w.title === title && w.accessible);
    if (window) return child;
    await sleep(200);
  }
  throw new Error(`${title} did not register in 30 s`);
}

const report = (path: string): Report => JSON.parse(readFileSync(path, "utf8")) as Report;

/** The drawn words read exactly with a box within 3 px on every side, and those that were not. */
function score(drawn: DrawnWord[], read: Word[]): { hits: number; misses: string[] } {
  const misses: string[] = [];
  for (const d of drawn) {
    const near = read.find(
      (r) =>
        r.text === d.text &&
        Math.abs(r.box.x - d.x) <= 3 &&
        Math.abs(r.box.y - d.y) <= 3 &&
        Math.abs(r.box.x + r.box.width - (d.x + d.width)) <= 3 &&
        Math.abs(r.box.y + r.box.height - (d.y + d.height)) <= 3,
    );
    if (!near) {
      const same = read.find((r) => r.text === d.text);
      misses.push(
        same
          ? `${d.text}: box ${same.box.x},${same.box.y} ${same.box.width}×${same.box.height}, drawn ${d.x},${d.y} ${d.width}×${d.height}`
          : `${d.text}: not read`,
      );
    }
  }
  return { hits: drawn.length - misses.length, misses };
}

describe("text from pixels", () => {
  let backend: AtspiBackend;
  let context: ToolContext;
  const apps: ChildProcess[] = [];
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    backend = await connect();
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    apps.push(
      await startApp(
        backend,
        ["/usr/bin/python3", "test/fixtures/ocr/gtk3_canvas.py", GTK.report],
        GTK.title,
      ),
    );
    const swing = [...SWING_COMMAND.slice(0, -1), "DeskhandCanvas", SWING.report];
    apps.push(await startApp(backend, swing, SWING.title));
  });
  after(async () => {
    for (const app of apps) {
      try {
        process.kill(-app.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await context.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const readWindow = async (title: string) => {
    const result = await call("read_screen_text", { of: { kind: "window", window: { title } } });
    assert.ok(result.ok, JSON.stringify(result.error));
    return result;
  };

  for (const fixture of [GTK, SWING]) {
    it(`${fixture.title}: at least 95% of the painted words, exactly, each box within 3 px`, async () => {
      const result = await readWindow(fixture.title);
      assert.match(
        result.text!,
        /^# text from pixels \(OCR: tesseract [\d.]+, .*\), not from the application/,
      );
      const read: Word[] = result.data.lines.flatMap((l: { words: Word[] }) => l.words);
      const drawn = report(fixture.report).words;
      assert.ok(drawn.length >= 17, `${drawn.length} words drawn`);
      const { hits, misses } = score(drawn, read);
      assert.ok(
        hits / drawn.length >= 0.95,
        `${hits} of ${drawn.length}: ${misses.join("; ")}\n${result.text}`,
      );
      // The hard cases, by name: light on dark, digits, German.
      for (const word of drawn.filter((d) =>
        /^(Dark|Night|Größenänderung|Übersicht|0123456789|9876543210)$/.test(d.text),
      ))
        assert.ok(
          !misses.some((m) => m.startsWith(`${word.text}:`)),
          `${word.text} was read: ${misses.join("; ")}`,
        );
    });
  }

  for (const [fixture, word] of [
    [GTK, "Revenue"],
    [SWING, "Theme"],
  ] as const) {
    it(`${fixture.title}: find_text "${word}" and a click at its centre lands on that word`, async () => {
      const found = await call("find_text", {
        text: word,
        of: { kind: "window", window: { title: fixture.title } },
      });
      assert.ok(found.ok, JSON.stringify(found.error));
      assert.equal(found.data.total, 1, found.text);
      const match = found.data.matches[0];
      assert.equal(match.text, word);
      const clicked = await call("click", {
        at: { space: "global", ...match.centre },
        intent: `Click the painted word ${word}`,
      });
      assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
      // The app's own account: its label (read through the tree) and its report.
      let label = "";
      for (let i = 0; i < 30 && label !== `Clicked: ${word}`; i++) {
        const found = await call("find", {
          target: { kind: "title", glob: fixture.title },
          role: "label",
          name_contains: "Clicked:",
        });
        label = found.data?.matches?.[0]?.name ?? "";
        if (label !== `Clicked: ${word}`) await sleep(100);
      }
      assert.equal(label, `Clicked: ${word}`);
      assert.equal(report(fixture.report).clicked, word);
    });
  }

  it("xmessage's message beside its stippled bar: observe lists every word (a doubtful line is read again)", async () => {
    // The bar's stipple was read as part of "Quarterly" at a confidence of 33, and the word was left out.
    const title = `OCR xmessage ${process.pid}`;
    const app = spawn("xmessage", ["-title", title, "Quarterly figures are filed in Zanzibar"], {
      stdio: "ignore",
      detached: true,
    });
    apps.push(app);
    const deadline = Date.now() + 20_000;
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    while (Date.now() < deadline) {
      reply = await call("observe", { target: { kind: "title", glob: title } });
      if (reply.ok && /\(from pixels\)/.test(reply.text ?? "")) break;
      await sleep(300);
    }
    assert.ok(reply?.ok, JSON.stringify(reply?.error));
    assert.match(
      reply.text!,
      /^\d+\. text "Quarterly figures are filed in Zanzibar" \(from pixels\)/m,
      reply.text,
    );
    const read = await readWindow(title);
    const line = (read.data.lines as { text: string; words: Word[] }[]).find((l) => /Zanzibar/.test(l.text));
    assert.equal(line?.text, "Quarterly figures are filed in Zanzibar", read.text);
    // The word's box is the word's, not the bar's beside it: it starts right of the bar (x ≥ 14 in the window).
    const window = (await backend.listWindows()).find((w) => w.title === title)!;
    const quarterly = line!.words[0]!;
    assert.ok(quarterly.box.x - window.rect!.x >= 14, JSON.stringify({ quarterly, window: window.rect }));
  });

  it("a password field showing its text is never read: its area is blanked first", async () => {
    const { secret } = report(SWING.report);
    // The check can fail: unblanked, the same pixels do read as the secret.
    const window = (await backend.listWindows()).find((w) => w.title === SWING.title)!;
    const hands = await openX11Hands({ display: process.env.DISPLAY });
    try {
      await call("read_screen_text", { of: { kind: "window", window: { id: window.id } } });
      const raw = await prepareForOcr(await hands.capture(window.rect!), []);
      const words = await context
        .recognizer()
        .recognize(raw.image, { languages: ["eng"], timeoutMs: 30_000 });
      const all = words.map((w) => w.text).join("");
      assert.ok(all.includes(secret), `unblanked, the field reads: ${words.map((w) => w.text).join(" ")}`);
    } finally {
      await hands.close();
    }
    const replies = [
      await readWindow(SWING.title),
      await call("read_screen_text", { of: { kind: "screen" } }),
      await call("find_text", {
        text: "Hunter2",
        match: "contains",
        of: { kind: "window", window: { title: SWING.title } },
      }),
    ];
    for (const reply of replies) {
      assert.ok(reply.ok, JSON.stringify(reply.error));
      const everything = `${reply.text}\n${JSON.stringify(reply.data)}`;
      assert.ok(!/2Secret|Hunter 2/.test(everything), everything);
      assert.match(reply.text!, /password fields? blanked before reading/);
    }
    assert.equal(replies[2]!.data.total, 0);
  });

  it("a language not installed, or no engine at all, is a clear error that says what to install", async () => {
    const missing = await call("read_screen_text", {
      of: { kind: "window", window: { title: GTK.title } },
      languages: ["eng", "fra"],
    });
    assert.equal(missing.error?.code, "invalid_params");
    assert.match(missing.error.message, /OCR language "fra" is not installed \(installed: .*eng/);
    assert.match(missing.error.next, /apt-get install tesseract-ocr-<code>/);
    const bare = createContext({
      refLifetime: "while-verified",
      recognizer: new TesseractRecognizer("/nonexistent/tesseract"),
    });
    try {
      const none = await toolCaller(bare)("find_text", { text: "Revenue" });
      assert.equal(none.error?.code, "ocr_unavailable");
      assert.match(none.error.message, /tesseract cannot be run/);
      assert.match(none.error.next, /apt-get install tesseract-ocr/);
    } finally {
      await bare.close();
    }
  });

  it("snapshots mark painted surfaces pixels only, and a find with no match there says so", async () => {
    for (const [title, role] of [
      [GTK.title, "drawing area"],
      [SWING.title, "panel"],
    ] as const) {
      const snapshot = await call("snapshot", { target: { kind: "title", glob: title } });
      assert.ok(snapshot.ok, JSON.stringify(snapshot.error));
      assert.match(
        snapshot.text!,
        new RegExp(`- ${role} \\[ref=\\S+\\] · pixels only: read_screen_text reads its text`),
      );
      const find = await call("find", { target: { kind: "title", glob: title }, name: "Quarterly" });
      assert.equal(find.data.total, 0);
      assert.match(find.text!, new RegExp(`pixels only, with no text in the tree: ${role} \\[ref=`));
      // The surface's ref reads its text.
      const ref = find.data.pixels_only[0].ref;
      const text = await call("read_screen_text", { of: { kind: "element", ref } });
      assert.ok(text.ok, JSON.stringify(text.error));
      assert.match(text.text!, /Quarterly/);
    }
  });
});
