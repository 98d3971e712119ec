// deskhand's keys do what the same keys from xdotool do (issue 55). Each app is started twice from
// the same file: once driven by deskhand's `key` and `type_text`, once by xdotool, with the same steps
// (the chords that went wrong before among them: KWrite's alt+e, which opened nothing; a chord in
// mousepad and AbiWord, whose judging once swallowed the next space or inserted a footnote). Each run
// ends with xdotool's ctrl+s, and the files the app saved are compared, with each other and with what
// a person would expect. A person's approval is given in advance: this is about input, not the gate.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { globMatch } from "../../src/core/glob.js";
import type { ToolContext } from "../../src/tools/context.js";
import {
  findWaiting,
  firefoxProfile,
  gatedContext,
  HANG_MS,
  settled,
  startApp,
  toolCaller,
} from "./helpers.js";

type Call = ReturnType<typeof toolCaller>;
type Step = { key: string } | { type: string };

interface Case {
  app: string;
  /** The file the app opens, and what it holds first. */
  file: string;
  start: string;
  command: (file: string) => string[];
  /** A glob of its window's title, edited or not, and an element that shows it is ready. */
  title: string;
  ready: Record<string, unknown>;
  steps: Step[];
  /**
   * What the saved file says of the document (xdotool's ctrl+s saves it), or, with no file, what
   * the app shows: compared between the runs and with `expected`.
   */
  read: (saved: string) => string;
  shown?: (call: Call) => Promise<string>;
  expected: string;
}

const dir = mkdtempSync(join(tmpdir(), "deskhand-parity-"));
const pid = process.pid;
const EMPTY_ABW =
  '<?xml version="1.0" encoding="UTF-8"?>\n<abiword xmlns="http://www.abisource.com/awml.dtd" fileformat="1.1">\n<section><p></p></section>\n</abiword>\n';

const CASES: Case[] = [
  {
    app: "KWrite",
    file: `notes-${pid}.txt`,
    start: "last line\n",
    command: (file) => ["kwrite", file],
    title: `notes-${pid}.txt*KWrite`,
    ready: { role: "text", name: `notes-${pid}.txt` },
    steps: [
      { type: "abc def" },
      { key: "alt+e" },
      { key: "Escape" },
      { key: "Escape" },
      { type: " ghi" },
      { key: "Return" },
    ],
    read: (saved) => saved,
    expected: "abc def ghi\nlast line\n",
  },
  {
    app: "mousepad",
    file: `notes-${pid}.txt`,
    start: "",
    command: (file) => ["mousepad", file],
    title: `*notes-${pid}.txt - Mousepad`,
    ready: { role: "text" },
    steps: [
      { type: "abc" },
      { key: "Home" },
      { type: ">" },
      { key: "End" },
      { key: "ctrl+b" },
      { type: " xyz" },
    ],
    read: (saved) => saved,
    expected: ">abc xyz",
  },
  {
    app: "AbiWord",
    file: `letter-${pid}.abw`,
    start: EMPTY_ABW,
    command: (file) => ["abiword", file],
    title: `*letter-${pid}.abw`,
    ready: { role: "menu", name: "Format" },
    steps: [{ type: "abc" }, { key: "ctrl+b" }, { type: " xyz" }],
    // The body's text, and which of it is bold (AbiWord's canvas has no text to read: its file does).
    read: (saved) => {
      const body = /<section[^>]*>([\s\S]*)<\/section>/.exec(saved)?.[1] ?? "";
      const bold = [...body.matchAll(/<c [^>]*font-weight:bold[^>]*>([^<]*)<\/c>/g)].map((m) => m[1]);
      return `${body.replace(/<[^>]+>/g, "").trim()} | bold: ${bold.join("").trim()}`;
    },
    expected: "abc xyz | bold: xyz",
  },
  {
    // A menu open in Firefox (Escape there once crashed it), keys typed into a page's text area after.
    app: "Firefox",
    file: `page-${pid}.html`,
    start: "<title>Parity Page</title><textarea autofocus></textarea>",
    command: (file) => ["firefox-esr", "--no-remote", "--profile", firefoxProfile(join(file, "..")), file],
    title: "Parity Page — Mozilla Firefox",
    ready: { role: "entry" },
    steps: [{ type: "abc" }, { key: "alt+e" }, { key: "Escape" }, { key: "Escape" }, { type: " xyz" }],
    read: () => "",
    shown: async (call) =>
      (
        (await findWaiting(call, "Parity Page — Mozilla Firefox", { role: "entry" }, HANG_MS)) as {
          value?: string;
        }
      ).value ?? "",
    expected: "abc xyz",
  },
];

/** xdotool's answer; a call that fails names itself. */
function xdotool(...args: string[]): string {
  try {
    return execFileSync("xdotool", args, { encoding: "utf8", timeout: 30_000 }).trim();
  } catch (error) {
    throw new Error(`xdotool ${args.join(" ")}: ${(error as Error).message}`);
  }
}

/** The titled window (as deskhand lists it: one X window id), put in front and focused by xdotool. */
async function xdotoolFront(call: Call, title: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const windows = ((await call("windows", {})).data?.windows ?? []) as { id: number; title: string }[];
    const found = windows.find((w) => globMatch(title, w.title));
    if (found) {
      xdotool("windowactivate", "--sync", String(found.id));
      xdotool("windowfocus", "--sync", String(found.id));
      await sleep(300);
      return;
    }
    assert.ok(Date.now() < deadline, `no window ${title}: ${JSON.stringify(windows.map((w) => w.title))}`);
    await sleep(200);
  }
}

describe("deskhand's keys do what xdotool's do: the saved documents are the same", () => {
  const contexts: ToolContext[] = [];
  after(async () => {
    for (const context of contexts) await context.close();
  });

  /** One run: the app on a fresh copy of the file, the steps by `driver`, xdotool's ctrl+s, the file read. */
  async function run(c: Case, driver: "deskhand" | "xdotool", replies: string[] = []): Promise<string> {
    const runDir = mkdtempSync(join(dir, `${c.app}-${driver}-`));
    const file = join(runDir, c.file);
    writeFileSync(file, c.start);
    const context = gatedContext(runDir, [{ reason: "any" }]);
    contexts.push(context);
    const call = toolCaller(context);
    const app = startApp(c.command(file));
    try {
      await findWaiting(call, c.title, c.ready, HANG_MS);
      if (driver === "deskhand") {
        for (const step of c.steps) {
          const result =
            "key" in step
              ? await call("key", { key: step.key, intent: `Press ${step.key}`, window: { title: c.title } })
              : await call("type_text", { text: step.type, intent: "Write", window: { title: c.title } });
          // A canvas with no text to read back (AbiWord's) is "unverified": its file says what arrived.
          if (!["done", "unverified"].includes(result.data?.status))
            replies.push(`${JSON.stringify(step)}: ${result.text ?? JSON.stringify(result.error)}`);
        }
      } else {
        await xdotoolFront(call, c.title);
        for (const step of c.steps) {
          if ("key" in step) xdotool("key", "--delay", "12", step.key);
          else xdotool("type", "--delay", "12", step.type);
          await sleep(150);
        }
      }
      await sleep(300);
      if (c.shown) return await c.shown(call);
      const before = statSync(file).mtimeMs;
      await xdotoolFront(call, c.title);
      xdotool("key", "ctrl+s");
      const saved = await settled(
        async () => statSync(file).mtimeMs,
        (mtime) => mtime !== before,
        20_000,
      );
      assert.notEqual(saved, before, `${c.app} (${driver}): ctrl+s saved nothing`);
      await sleep(200);
      return c.read(readFileSync(file, "utf8"));
    } finally {
      app.kill();
      await app.exited;
    }
  }

  for (const c of CASES)
    it(`${c.app}: ${c.steps.map((s) => ("key" in s ? s.key : JSON.stringify(s.type))).join(", ")}`, async () => {
      const replies: string[] = [];
      const byDeskhand = await run(c, "deskhand", replies);
      // The reference is xdotool's, not deskhand's: where it missed (Firefox once dropped the keys
      // typed just after its menu closed, under load), it runs once more before anything is compared.
      let byXdotool = await run(c, "xdotool");
      if (byXdotool !== c.expected) byXdotool = await run(c, "xdotool");
      assert.equal(byXdotool, c.expected, `${c.app}: xdotool's own run (the reference), twice`);
      assert.equal(
        byDeskhand,
        byXdotool,
        `${c.app}: deskhand's keys differ from xdotool's; ${replies.join("; ")}`,
      );
      // Every step said it was done (a canvas's typing: sent, not verified), as it was.
      assert.deepEqual(replies, []);
    });
});
