// bench/ocr: text from pixels, deskhand's engine (Debian's Tesseract, run as a process) beside the
// engines it was chosen over, on this project's own screens, in one run: tesseract.js (the same
// engine family in WebAssembly, with npm's language data) and, when installed, a PaddleOCR model
// through ONNX Runtime (`npm i --no-save --ignore-scripts @gutenye/ocr-node`; its install script
// downloads from NuGet, which this machine cannot reach, and the package is 400 MB). Every engine gets
// the same capture: the two canvas fixtures (whose words and ink boxes are known), a 300×100 region,
// a 1280×800 area of LibreOffice Calc, and three short messages no test reads (two xmessage windows,
// which have no tree, and a zenity warning). Accuracy is the share of drawn words read exactly with a
// box within 3 px; PaddleOCR gives line boxes only, so its words are counted by text alone, as are the
// messages' (their boxes are not known). deskhand's engine is run twice: as the tools run it (doubtful
// lines read a second time, src/core/ocr-second-pass.ts) and with one reading, as before.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { encodePng } from "../src/core/image.js";
import { toScreenLines } from "../src/core/ocr.js";
import { prepareForOcr } from "../src/core/ocr-image.js";
import { recognizeTwice } from "../src/core/ocr-second-pass.js";
import { connectBackend } from "../src/platform/index.js";
import { TesseractRecognizer } from "../src/platform/ocr/tesseract.js";
import type { Rect } from "../src/platform/types.js";
import { openX11Hands } from "../src/platform/x11/hands.js";
import { median } from "./stats.js";

const require = createRequire(import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LANGUAGES = ["eng", "deu"];

interface Word {
  text: string;
  box: Rect | null;
}
interface Engine {
  name: string;
  /** Words in the capture's pixels. */
  read(capture: { width: number; height: number; data: Buffer }): Promise<Word[]>;
  close(): Promise<void>;
}

/** deskhand's engine as the tools run it; `twice: false`, as it was before doubtful lines were read again. */
async function deskhandEngine(twice = true): Promise<Engine> {
  const tesseract = new TesseractRecognizer();
  const info = await tesseract.describe();
  const options = { languages: LANGUAGES, timeoutMs: 60_000 };
  return {
    name: `deskhand: Debian tesseract ${info.version} (process, ${LANGUAGES.join("+")}, ${twice ? "doubtful lines read twice" : "one reading"})`,
    async read(capture) {
      const prepared = await prepareForOcr(capture, []);
      const words = twice
        ? await recognizeTwice(tesseract, capture, prepared, [], options)
        : await tesseract.recognize(prepared.image, options);
      // The words the tools give: what the engine is not sure of at all is left out there (LEAVE_OUT).
      const { lines } = toScreenLines(words, { x: 0, y: 0 }, prepared.factor);
      return lines.flatMap((l) => l.words.map((w) => ({ text: w.text, box: w.box })));
    },
    close: async () => undefined,
  };
}

async function tesseractJs(): Promise<Engine> {
  const { createWorker } = (await import("tesseract.js")) as typeof import("tesseract.js");
  // Each language's data is its own package; the worker reads every language from one folder.
  const folder = mkdtempSync("/tmp/deskhand-tessjs-");
  for (const lang of LANGUAGES) {
    const from = `${dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`))}/4.0.0_best_int`;
    copyFileSync(`${from}/${lang}.traineddata.gz`, `${folder}/${lang}.traineddata.gz`);
  }
  const worker = await createWorker(LANGUAGES, 1, { langPath: folder, cacheMethod: "none", gzip: true });
  return {
    name: "tesseract.js 7 (WebAssembly, best_int data from npm)",
    async read(capture) {
      const prepared = await prepareForOcr(capture, []);
      const rgba = Buffer.alloc(prepared.image.width * prepared.image.height * 4);
      prepared.image.data.forEach((v, i) => {
        rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = v;
        rgba[i * 4 + 3] = 255;
      });
      const png = encodePng({ width: prepared.image.width, height: prepared.image.height, data: rgba });
      const { data: result } = await worker.recognize(png, {}, { blocks: true });
      const words = (result.blocks ?? []).flatMap((b) =>
        b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)),
      );
      return words.map((w) => ({
        text: w.text,
        box: scaled(
          { x: w.bbox.x0, y: w.bbox.y0, width: w.bbox.x1 - w.bbox.x0, height: w.bbox.y1 - w.bbox.y0 },
          prepared.factor,
        ),
      }));
    },
    close: async () => {
      await worker.terminate();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function paddle(): Promise<Engine | string> {
  let Ocr: { create(): Promise<{ detect(path: string): Promise<{ text: string }[]> }> };
  try {
    Ocr = (await import("@gutenye/ocr-node" as string)).default;
  } catch {
    return "PaddleOCR (PP-OCRv4 through ONNX Runtime): not installed here; npm i --no-save --ignore-scripts @gutenye/ocr-node";
  }
  const ocr = await Ocr.create();
  const file = `${mkdtempSync("/tmp/deskhand-ocr-bench-")}/capture.png`;
  return {
    name: "PaddleOCR PP-OCRv4 (ONNX Runtime, @gutenye/ocr-node; line boxes only)",
    async read(capture) {
      writeFileSync(file, encodePng(capture));
      const lines = await ocr.detect(file);
      return lines.flatMap((l) => l.text.split(/\s+/).map((text) => ({ text, box: null })));
    },
    close: async () => undefined,
  };
}

function scaled(box: Rect, factor: number): Rect {
  return {
    x: Math.round(box.x / factor),
    y: Math.round(box.y / factor),
    width: Math.round(box.width / factor),
    height: Math.round(box.height / factor),
  };
}

interface Drawn {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Drawn words read exactly (and, where the engine gives word boxes, within 3 px). */
function accuracy(drawn: Drawn[], read: Word[], origin: { x: number; y: number }): string {
  let hits = 0;
  for (const d of drawn) {
    const hit = read.some((r) => {
      if (r.text !== d.text) return false;
      if (!r.box) return true;
      const b = { ...r.box, x: r.box.x + origin.x, y: r.box.y + origin.y };
      return (
        Math.abs(b.x - d.x) <= 3 &&
        Math.abs(b.y - d.y) <= 3 &&
        Math.abs(b.x + b.width - d.x - d.width) <= 3 &&
        Math.abs(b.y + b.height - d.y - d.height) <= 3
      );
    });
    if (hit) hits++;
  }
  return `${hits}/${drawn.length} (${Math.round((hits / drawn.length) * 100)}%)`;
}

/**
 * Short messages in windows no test reads, whose words are known but not their boxes (scored by text):
 * two xmessage windows (no tree; a stippled bar beside the first word) and a zenity warning.
 */
const MESSAGES = [
  { title: "Bench Zanzibar", text: "Quarterly figures are filed in Zanzibar" },
  { title: "Bench Helsinki", text: "Nightly backups of Helsinki finished at 04:15" },
  { title: "Bench Oberhausen", text: "Invoice 7731 for Oberhausen is overdue by 12 days" },
];
const messageApps: ChildProcess[] = [
  spawn("xmessage", ["-title", MESSAGES[0]!.title, "-geometry", "+40+40", MESSAGES[0]!.text]),
  spawn("xmessage", [
    "-title",
    MESSAGES[1]!.title,
    "-geometry",
    "+40+200",
    "-buttons",
    "Archive:0,Discard:1",
    MESSAGES[1]!.text,
  ]),
  spawn("zenity", ["--warning", "--title", MESSAGES[2]!.title, "--text", MESSAGES[2]!.text]),
];

const backend = await connectBackend();
const hands = await openX11Hands({ display: process.env.DISPLAY });
for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
  const titles = new Set((await backend.listWindows()).map((w) => w.title));
  if (MESSAGES.every((m) => titles.has(m.title))) break;
}
await sleep(500);
const windows = await backend.listWindows();
const windowRect = (title: RegExp) => windows.find((w) => title.test(w.title))?.rect ?? undefined;
const gtk = windowRect(/^Canvas Fixture$/);
const swing = windowRect(/^Swing Canvas$/);
const calc = windowRect(/LibreOffice Calc$/);
const reports = {
  gtk: process.env.BENCH_GTK3_CANVAS ?? "/tmp/deskhand-bench-gtk3-canvas.json",
  swing: process.env.BENCH_SWING_CANVAS ?? "/tmp/deskhand-bench-swing-canvas.json",
};

interface Case {
  label: string;
  region: Rect;
  window?: number;
  drawn?: Drawn[];
  /** A message's words, scored by text alone. */
  message?: string;
}
const cases: Case[] = [];
const idOf = (title: RegExp) => windows.find((w) => title.test(w.title))?.id;
if (gtk) {
  const drawn = (JSON.parse(readFileSync(reports.gtk, "utf8")) as { words: Drawn[] }).words;
  cases.push({
    label: `GTK 3 canvas window (${gtk.width}×${gtk.height})`,
    region: gtk,
    window: idOf(/^Canvas Fixture$/)!,
    drawn,
  });
  cases.push({
    label: "300×100 region of it (two lines)",
    region: { x: gtk.x, y: gtk.y + 10, width: 300, height: 100 },
    window: idOf(/^Canvas Fixture$/)!,
  });
}
if (swing) {
  const drawn = (JSON.parse(readFileSync(reports.swing, "utf8")) as { words: Drawn[] }).words;
  cases.push({
    label: `Swing canvas window (${swing.width}×${swing.height})`,
    region: swing,
    window: idOf(/^Swing Canvas$/)!,
    drawn,
  });
}
if (calc)
  cases.push({
    label: "LibreOffice Calc, 1280×800",
    region: { x: calc.x, y: calc.y, width: Math.min(1280, calc.width), height: Math.min(800, calc.height) },
    window: idOf(/LibreOffice Calc$/)!,
  });

for (const m of MESSAGES) {
  const window = windows.find((w) => w.title === m.title);
  if (!window?.rect) continue;
  const kind = m.title === MESSAGES[2]!.title ? "zenity warning" : "xmessage, no tree";
  cases.push({
    label: `${kind}: "${m.text}" (${window.rect.width}×${window.rect.height})`,
    region: window.rect,
    window: window.id,
    message: m.text,
  });
}

/** A message's words read exactly, each once, by text alone. */
function messageRead(message: string, read: Word[]): string {
  const left = read.map((r) => r.text);
  const words = message.split(" ");
  let hits = 0;
  for (const w of words) {
    const at = left.indexOf(w);
    if (at < 0) continue;
    left.splice(at, 1);
    hits++;
  }
  return `${hits}/${words.length} (text only)`;
}

const engines: (Engine | string)[] = [
  await deskhandEngine(),
  await deskhandEngine(false),
  await tesseractJs(),
  await paddle(),
];
console.log("# bench/ocr · text from pixels, the same captures for every engine (medians of warm runs)");
console.log("| case | engine | time | drawn words read (exact, box ≤ 3 px) | words read |");
console.log("|---|---|---|---|---|");
for (const c of cases) {
  if (c.window) {
    await hands.activate(c.window);
    await sleep(300);
  }
  const capture = await hands.capture(c.region);
  for (const engine of engines) {
    if (typeof engine === "string") continue;
    await engine.read(capture); // warm-up: the first run loads the model
    const times: number[] = [];
    let words: Word[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      words = await engine.read(capture);
      times.push(performance.now() - started);
    }
    const drawn = c.drawn
      ? accuracy(c.drawn, words, c.region)
      : c.message
        ? messageRead(c.message, words)
        : "–";
    console.log(
      `| ${c.label} | ${engine.name} | ${Math.round(median(times))} ms | ${drawn} | ${words.length} |`,
    );
  }
}
for (const engine of engines) if (typeof engine === "string") console.log(`\n${engine}`);
for (const engine of engines) if (typeof engine !== "string") await engine.close();
for (const app of messageApps) app.kill();
await hands.close();
await backend.close();
process.exit(0);
