// Observe's pixels part on fake hands and a fake engine: the uncached surfaces of a page are read with
// one engine run, each word given back to its own surface at its global place; unchanged pixels are
// not read again, and only a changed surface is; a covered surface is named, not read.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ObservedTarget } from "../../src/core/observe.js";
import type { PixelTarget } from "../../src/core/pixel-targets.js";
import type { SnapshotPage } from "../../src/core/snapshot.js";
import { FakeHands } from "../../src/platform/fake/hands.js";
import type { RgbaImage } from "../../src/platform/hands.js";
import type { GrayImage, RecognizedWord, TextRecognizer } from "../../src/platform/ocr/types.js";
import type { Rect } from "../../src/platform/types.js";
import { createContext } from "../../src/tools/context.js";
import { withPixelTargets } from "../../src/tools/pixels-view.js";

const A = { x: 100, y: 50, width: 200, height: 40 };
const B = { x: 400, y: 300, width: 100, height: 60 };

/** Captures with a dark dot whose place `shade` moves, so a test can change a region's pixels. */
class DotHands extends FakeHands {
  shade = new Map<string, number>();
  override async capture(rect: Rect): Promise<RgbaImage> {
    const data = Buffer.alloc(rect.width * rect.height * 4, 255);
    data.fill(0, 0, 4 * (1 + (this.shade.get(`${rect.x}`) ?? 0)));
    return { width: rect.width, height: rect.height, data };
  }
}

/** Says "Alpha" at 10,10 of the first stacked surface and "Beta" at 5,10 of the second (captured pixels). */
class StackReader implements TextRecognizer {
  runs: { width: number; height: number }[] = [];
  async describe() {
    return { engine: "fake", version: "1", languages: ["eng"], available: true, detail: "" };
  }
  async recognize(image: GrayImage, _options?: unknown): Promise<RecognizedWord[]> {
    this.runs.push({ width: image.width, height: image.height });
    const word = (text: string, x: number, y: number, line: number): RecognizedWord => ({
      text,
      box: { x: 2 * x, y: 2 * y, width: 60, height: 20 },
      confidence: 95,
      block: line,
      paragraph: 1,
      line: 1,
    });
    // Doubled: the second surface starts 40 + 16 captured rows down.
    const words = [word("Alpha", 10, 10, 1)];
    if (image.height / 2 > 56) words.push(word("Beta", 5, 56 + 10, 2));
    return words;
  }
}

const element = (ref: string, bounds: Rect) => ({
  ref,
  role: "panel",
  name: null,
  states: ["showing"],
  bounds,
  index: 0,
  depth: 1,
  childCount: 0,
  window: 1,
  pixelsOnly: true as const,
});
const page = {
  snapshotId: "s1",
  windows: [{ id: 1, title: "Canvas", pid: 1, app: "fake" }],
  elements: [element("s1:e1", A), element("s1:e2", B)],
} as unknown as SnapshotPage;
const targets: ObservedTarget[] = [
  { index: 0, ref: "s1:e1", label: "panel (pixels only)", actions: ["read_screen_text"] },
  { index: 1, ref: "s1:e2", label: "panel (pixels only)", actions: ["read_screen_text"] },
];

/** A context with fake hands and engine, and no accessibility bus: the pixels part alone. */
function pixelContext(hands: DotHands, reader: StackReader) {
  return createContext({
    refLifetime: "while-verified",
    connectHands: async () => hands,
    connect: async () => {
      throw new Error("no accessibility bus here");
    },
    recognizer: reader,
  });
}

describe("observe's pixels part", () => {
  it("reads every surface in one engine run, and gives each word back at its global place", async () => {
    const hands = new DotHands({ windows: [{ id: 1, rect: { x: 0, y: 0, width: 1280, height: 800 } }] });
    const reader = new StackReader();
    const context = pixelContext(hands, reader);
    try {
      const first = await withPixelTargets(context, page, targets);
      assert.equal(reader.runs.length, 1, "one engine run for two surfaces");
      assert.deepEqual(reader.runs[0], { width: 2 * 200, height: 2 * (40 + 16 + 60) });
      const lines = first.targets.filter((t): t is PixelTarget => "from" in t);
      assert.deepEqual(
        lines.map((t) => [t.index, t.text, t.surface, t.box.x, t.box.y]),
        [
          [1, "Alpha", "s1:e1", A.x + 10, A.y + 10],
          [3, "Beta", "s1:e2", B.x + 5, B.y + 10],
        ],
      );
      assert.deepEqual(
        first.targets.map((t) => t.index),
        [0, 1, 2, 3],
      );
      // Unchanged: no run. B's pixels change: one run, of B alone.
      const again = await withPixelTargets(context, page, targets);
      assert.equal(reader.runs.length, 1);
      assert.equal(again.data?.cached, 2);
      hands.shade.set(`${B.x}`, 3);
      await withPixelTargets(context, page, targets);
      assert.equal(reader.runs.length, 2);
      assert.deepEqual(reader.runs[1], { width: 2 * 100, height: 2 * 60 });
    } finally {
      await context.close();
    }
  });

  it("a surface another window covers is named, not read", async () => {
    const hands = new DotHands({
      windows: [
        { id: 1, rect: { x: 0, y: 0, width: 1280, height: 800 } },
        { id: 2, rect: { x: 350, y: 250, width: 300, height: 200 } },
      ],
    });
    const reader = new StackReader();
    const context = pixelContext(hands, reader);
    try {
      const read = await withPixelTargets(context, page, targets);
      assert.match(read.notes.join("\n"), /not read from pixels: s1:e2: covered by window 2/);
      assert.deepEqual(reader.runs, [{ width: 400, height: 80 }]);
    } finally {
      await context.close();
    }
  });

  it("a surface read with no text recognised is said so, not left to look like a gap", async () => {
    const hands = new DotHands({ windows: [{ id: 1, rect: { x: 0, y: 0, width: 1280, height: 800 } }] });
    // Recognises Alpha on the first surface only: the second (a browser's empty tab strip) shows none.
    class FirstOnly extends StackReader {
      override async recognize(image: GrayImage) {
        return (await super.recognize(image)).filter((w) => w.text === "Alpha");
      }
    }
    const context = pixelContext(hands, new FirstOnly());
    try {
      const read = await withPixelTargets(context, page, targets);
      assert.match(read.notes.join("\n"), /2 of 2 surfaces read in \d+ ms; no text recognised on s1:e2$/m);
    } finally {
      await context.close();
    }
  });
});

describe("a closed combo box with no value in the tree", () => {
  it("shows what its face reads, marked as from pixels, read as lines; one with a value is not read", async () => {
    const hands = new DotHands({ windows: [{ id: 1, rect: { x: 0, y: 0, width: 1280, height: 800 } }] });
    const layouts: (string | undefined)[] = [];
    const reader = new (class extends StackReader {
      override async recognize(image: GrayImage, options?: { layout?: string }) {
        layouts.push(options?.layout);
        return super.recognize(image);
      }
    })();
    const context = pixelContext(hands, reader);
    const combo = (ref: string, value?: string) => ({
      ...element(ref, { ...A, width: 240, height: 30 }),
      role: "combo box",
      pixelsOnly: undefined,
      ...(value === undefined ? {} : { value }),
    });
    const faces = {
      ...page,
      elements: [combo("s1:e1"), combo("s1:e2", "Blue")],
    } as unknown as SnapshotPage;
    const listed: ObservedTarget[] = [
      { index: 0, ref: "s1:e1", label: 'combo box ~"Column" at (1, 2) in panel "Key"', actions: ["select"] },
      { index: 1, ref: "s1:e2", label: 'combo box "Color" = "Blue"', actions: ["select"] },
    ];
    try {
      const read = await withPixelTargets(context, faces, listed);
      assert.deepEqual(
        read.targets.map((t) => t.label),
        ['combo box ~"Column" = "Alpha" (pixels) at (1, 2) in panel "Key"', 'combo box "Color" = "Blue"'],
      );
      assert.deepEqual(layouts, ["lines"], "one face read, as lines");
      assert.match(
        read.notes.join("\n"),
        /1 closed combo box with no value in the tree: what it shows read from pixels/,
      );
    } finally {
      await context.close();
    }
  });
});
