// Where the tree is silent, observe's first look reads the pixels: a Swing canvas's painted words and
// the whole of xmessage (which has no accessible tree) are targets from pixels, with points. A click at
// a listed point lands on that word (the canvas says which word it got; xmessage's "okay" closes it)
// and the reply names the word read there. A repeat observe of unchanged pixels does not run the
// engine again; snapshot folds a surface's words into a line; a screenshot numbers observe's targets.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { decodePng } from "../../src/core/image.js";
import { MARK_COLOUR } from "../../src/core/marks.js";
import type { SnapshotPage } from "../../src/core/snapshot.js";
import { TesseractRecognizer } from "../../src/platform/ocr/tesseract.js";
import type { TextRecognizer } from "../../src/platform/ocr/types.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { foldedPixelLines } from "../../src/tools/pixels-view.js";
import { toolNamed } from "../../src/tools/registry.js";
import { type StartedApp, startApp, startSwingFixture, toolCaller, within } from "./helpers.js";

interface PixelTarget {
  index: number;
  label: string;
  text: string;
  from?: "pixels";
  at: { x: number; y: number };
  words?: { text: string; at: { x: number; y: number } }[];
  box: { x: number; y: number; width: number; height: number };
}

const dir = mkdtempSync(join(tmpdir(), "deskhand-observe-pixels-"));
const CANVAS = { title: "Swing Canvas", report: join(dir, "canvas.json") };
const XMESSAGE = `Pixels xmessage ${process.pid}`;

/** The point observe gives for one word: its own, or its line's when the line is that word. */
function pointOf(targets: PixelTarget[], text: string): { x: number; y: number } | undefined {
  for (const t of targets.filter((t) => t.from === "pixels")) {
    const word = t.words?.find((w) => w.text === text);
    if (word) return word.at;
    if (t.text === text) return t.at;
  }
  return undefined;
}

describe("observe reads the pixels where the tree is silent", () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let recognized = 0;
  const apps: StartedApp[] = [];
  before(async () => {
    const engine = new TesseractRecognizer();
    const counting: TextRecognizer = {
      describe: () => engine.describe(),
      recognize: (image, options) => {
        recognized++;
        return engine.recognize(image, options);
      },
    };
    context = createContext({
      refLifetime: "while-verified",
      recognizer: counting,
      // A press in a window with no tree needs a person: here, one who says yes.
      confirm: async () => "approved",
      env: {
        ...process.env,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
    });
    call = toolCaller(context);
    apps.push(startSwingFixture("DeskhandCanvas", [CANVAS.report]));
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Observe of the canvas, asked again until its tree is registered and its pixels-only surface read
   * (before Java registers its window, the whole window is read from pixels, as any window with no tree).
   */
  const observeCanvas = async () => {
    const deadline = Date.now() + within(30_000);
    for (;;) {
      const reply = await call("observe", { target: { kind: "title", glob: `${CANVAS.title}*` } });
      if (reply.ok && /\(pixels only\)[\s\S]*\(from pixels\)/.test(reply.text ?? "")) return reply;
      if (Date.now() > deadline)
        throw new Error(`no pixel targets: ${reply.text ?? JSON.stringify(reply.error)}`);
      await sleep(300);
    }
  };

  it("a Swing canvas: its painted words are targets from pixels, and a click at one lands on it", async () => {
    const reply = await observeCanvas();
    const text = reply.text!;
    const targets = reply.data.targets as PixelTarget[];
    // The surface, then its lines, each with a point; indices run on in one sequence.
    assert.match(text, /^\d+\. panel \(pixels only\) \[ref=[^\]]+\]/m, text);
    assert.match(
      text,
      /^\d+\. text "Night Theme Active" \(from pixels\) at \d+,\d+ · x \d+,\d+,\d+ click$/m,
      text,
    );
    assert.match(text, /^# from pixels \(OCR, may misread\): 1 of 1 surface read in \d+ ms/m, text);
    assert.deepEqual(
      targets.map((t) => t.index),
      targets.map((_, i) => i),
    );
    // The password field's text is on screen, and never read.
    assert.doesNotMatch(`${text}${JSON.stringify(reply.data)}`, /Hunter|2Secret/);
    const at = pointOf(targets, "Theme");
    assert.ok(at, text);
    const clicked = await call("click", {
      at: { space: "global", ...at },
      intent: "Click the painted word Theme",
    });
    assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
    assert.match(clicked.text!, /on panel \S+, on "Theme" \(from pixels\)/, clicked.text);
    let report = { clicked: null as string | null };
    for (let i = 0; i < 30 && report.clicked !== "Theme"; i++) {
      await sleep(100);
      // The fixture may be writing it: a half-written report is read again.
      try {
        report = JSON.parse(readFileSync(CANVAS.report, "utf8"));
      } catch {}
    }
    assert.equal(report.clicked, "Theme", "the canvas got the click on the word Theme");
  });

  it("a repeat observe of unchanged pixels does not run the engine again", async () => {
    await observeCanvas();
    const before = recognized;
    const again = await observeCanvas();
    assert.equal(recognized, before, "no recognition for unchanged pixels");
    assert.equal(again.data.pixels.cached, 1, JSON.stringify(again.data.pixels));
    assert.match(again.text!, /1 unchanged \(kept\)/);
    // Turned off, there are no pixel targets at all.
    const off = await call("observe", { target: { kind: "title", glob: `${CANVAS.title}*` }, pixels: false });
    assert.doesNotMatch(off.text!, /from pixels/);
  });

  it("a password field inside a surface read is blanked first: its text is never listed", async () => {
    // The canvas's own panel stops short of its password field: read a surface as large as the window.
    const window = (await call("windows", {})).data.windows.find(
      (w: { title: string }) => w.title === CANVAS.title,
    );
    const page = {
      snapshotId: "s0",
      windows: [{ id: window.id, title: window.title, pid: window.pid, app: window.app }],
      elements: [
        {
          ref: "s0:e0",
          role: "panel",
          name: null,
          states: [],
          bounds: window.rect,
          index: 0,
          depth: 0,
          childCount: 0,
          window: window.id,
          pixelsOnly: true,
        },
      ],
    } as unknown as SnapshotPage;
    const lines = (await foldedPixelLines(context, page)).join("\n");
    assert.match(lines, /1 password field blanked/, lines);
    assert.match(lines, /Quarterly Summary/, lines);
    assert.doesNotMatch(lines, /Hunter|2Secret/, lines);
  });

  it("snapshot's screen view folds a surface's words into one line", async () => {
    const reply = await call("snapshot", { target: { kind: "title", glob: `${CANVAS.title}*` } });
    assert.ok(reply.ok, JSON.stringify(reply.error));
    assert.match(
      reply.text!,
      /^- \S+ from pixels: "Quarterly Summary · [^\n]*Night Theme Active/m,
      reply.text,
    );
  });

  it("a screenshot numbers observe's targets with the same indices, at their boxes", async () => {
    const observed = await observeCanvas();
    const result = await callTool(context, toolNamed("screenshot"), {
      of: { kind: "window", window: { title: `${CANVAS.title}*` } },
      marks: observed.data.snapshotId,
    });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error.toJSON()));
    const shot = result.output as { data: any; text: string; image?: { data: Buffer } };
    assert.equal(shot.data.marks.of, observed.data.snapshotId);
    assert.ok(shot.data.marks.drawn >= 5, JSON.stringify(shot.data.marks));
    assert.match(shot.text, new RegExp(`marks: the indices of observe ${observed.data.snapshotId}`));
    // A pixel target's box is outlined in the mark's colour: its bottom-right corner is.
    assert.equal(shot.data.scale, 1);
    const image = decodePng(shot.image!.data);
    const region = shot.data.image_space.region;
    const line = (observed.data.targets as PixelTarget[]).find((t) => t.text === "Night Theme Active")!;
    const colourAt = (x: number, y: number) => {
      const o = ((y - region.y) * image.width + (x - region.x)) * 4;
      return [image.data[o], image.data[o + 1], image.data[o + 2]];
    };
    assert.deepEqual(colourAt(line.box.x + line.box.width - 1, line.box.y + line.box.height - 1), [
      ...MARK_COLOUR,
    ]);
    const unknown = await call("screenshot", { marks: "s999999" });
    assert.equal(unknown.error?.code, "invalid_params");
  });

  it("xmessage, with no tree: its words are targets from pixels, and a click at okay answers it", async () => {
    const app = startApp([
      "xmessage",
      "-title",
      XMESSAGE,
      "-buttons",
      "okay:0,later:1",
      "Quarterly report ready",
    ]);
    apps.push(app);
    const deadline = Date.now() + within(20_000);
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    while (Date.now() < deadline) {
      reply = await call("observe", { target: { kind: "title", glob: XMESSAGE } });
      if (reply.ok && /"okay"|\bokay\b/.test(reply.text ?? "")) break;
      await sleep(300);
    }
    assert.ok(reply?.ok, JSON.stringify(reply?.error));
    const text = reply.text!;
    assert.match(text, /all from pixels: window \d+ "Pixels xmessage \d+" has no accessible tree/, text);
    // By id as by title; unchanged, it is not read again.
    const byId = await call("observe", { target: { kind: "window", id: reply.data.windows[0].id } });
    assert.match(byId.text ?? JSON.stringify(byId.error), /all from pixels[\s\S]*1 unchanged \(kept\)/);
    const at = pointOf(reply.data.targets, "okay");
    assert.ok(at, text);
    assert.equal(app.child.exitCode, null, "xmessage is open before the click");
    const clicked = await call("click", {
      at: { space: "global", ...at },
      intent: "Answer okay",
      window: { title: XMESSAGE },
    });
    assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
    assert.match(clicked.text!, /on "okay" \(from pixels\)/, clicked.text);
    const code = await Promise.race([app.exited, sleep(within(5000)).then(() => "still open")]);
    assert.equal(code, 0, "xmessage exits with okay's code");
  });
});
