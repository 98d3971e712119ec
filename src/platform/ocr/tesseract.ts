// Tesseract, as Debian packages it (tesseract-ocr, 5.3), run as a process per recognition: a crash or a
// hang in the engine cannot take the server with it, and a deadline kills it. Chosen over tesseract.js
// and a PaddleOCR model through ONNX Runtime on this project's own screens (docs/benchmarks.md,
// bench/ocr): as exact, word boxes to the pixel, faster, and languages are Debian packages
// (tesseract-ocr-deu, …). Nothing is downloaded at run time.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { AppNotResponding } from "../types.js";
import {
  type GrayImage,
  LanguageMissing,
  type RecognizedWord,
  type RecognizeOptions,
  type RecognizerInfo,
  RecognizerUnavailable,
  type TextRecognizer,
} from "./types.js";

const run = promisify(execFile);
/** Tesseract's own data, not languages: orientation detection and equations. */
const NOT_LANGUAGES = new Set(["osd", "equ"]);
/** Languages can be installed while the server runs: what is installed is asked again after this. */
const DESCRIBE_TTL_MS = 10_000;

export class TesseractRecognizer implements TextRecognizer {
  #described: { at: number; info: Promise<RecognizerInfo> } | undefined;

  constructor(
    private readonly command = "tesseract",
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  describe(): Promise<RecognizerInfo> {
    if (!this.#described || Date.now() - this.#described.at > DESCRIBE_TTL_MS)
      this.#described = { at: Date.now(), info: this.#describe() };
    return this.#described.info;
  }

  async #describe(): Promise<RecognizerInfo> {
    try {
      const [version, langs] = await Promise.all([
        run(this.command, ["--version"], { timeout: 5000 }),
        run(this.command, ["--list-langs"], { timeout: 5000 }),
      ]);
      const first = `${version.stdout}${version.stderr}`.split("\n")[0] ?? "";
      const languages = langs.stdout
        .split("\n")
        .slice(1)
        .map((l) => l.trim())
        .filter((l) => l && !NOT_LANGUAGES.has(l));
      return {
        engine: "tesseract",
        version: /tesseract\s+(\S+)/i.exec(first)?.[1] ?? null,
        languages,
        available: languages.length > 0,
        detail:
          languages.length > 0
            ? "more languages: apt-get install tesseract-ocr-<code> (for example tesseract-ocr-fra)"
            : "tesseract has no language installed: apt-get install tesseract-ocr-eng",
      };
    } catch (error) {
      return {
        engine: "tesseract",
        version: null,
        languages: [],
        available: false,
        detail: `tesseract cannot be run (${(error as Error).message.split("\n")[0]}): apt-get install tesseract-ocr tesseract-ocr-eng`,
      };
    }
  }

  async recognize(image: GrayImage, options: RecognizeOptions): Promise<RecognizedWord[]> {
    const info = await this.describe();
    if (!info.available) throw new RecognizerUnavailable(info.detail);
    const missing = options.languages.filter((l) => !info.languages.includes(l));
    if (missing.length > 0) throw new LanguageMissing(missing, info.languages);
    // PGM, the simplest format Leptonica reads: no encoding to wait for on either side.
    const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, "ascii");
    const tsv = await this.#run(Buffer.concat([header, image.data]), options);
    return parseTsv(tsv);
  }

  #run(pgm: Buffer, options: RecognizeOptions): Promise<string> {
    return new Promise((resolve, reject) => {
      // One thread: OpenMP's threads cost more than they give on screen-sized images (0.24 s
      // against 0.38 s measured), and leave the other CPU to the apps and the X server.
      const child = spawn(
        this.command,
        // Sparse text (--psm 11): a screen is not a page. Automatic layout took a spreadsheet's
        // first row for part of its column header and read nothing of "Kiwi 4711" in it. Lines
        // alone are one block (--psm 6): sparse reading missed a combo box's lone "A".
        [
          "stdin",
          "stdout",
          "-l",
          options.languages.join("+"),
          "--psm",
          options.layout === "lines" ? "6" : "11",
          "tsv",
        ],
        { stdio: ["pipe", "pipe", "pipe"], env: { ...this.env, OMP_THREAD_LIMIT: "1" } },
      );
      const out: Buffer[] = [];
      let err = "";
      let settled = false;
      const finish = (error: Error | undefined, text?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", abort);
        if (error) reject(error);
        else resolve(text ?? "");
      };
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        finish(new AppNotResponding("the OCR engine (tesseract)", options.timeoutMs));
      }, options.timeoutMs);
      const abort = () => {
        child.kill("SIGKILL");
        finish(new Error("the recognition was cancelled"));
      };
      options.signal?.addEventListener("abort", abort, { once: true });
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        if (err.length < 4000) err += chunk.toString();
      });
      child.on("error", (error) =>
        finish(new RecognizerUnavailable(`tesseract cannot be run: ${error.message}`)),
      );
      child.on("close", (code) => {
        if (code === 0) finish(undefined, Buffer.concat(out).toString("utf8"));
        else
          finish(
            new Error(`tesseract exited with status ${code}: ${err.trim().split("\n").slice(-2).join(" ")}`),
          );
      });
      // A closed pipe (the engine died first) is reported by "close"; the write error adds nothing.
      child.stdin.on("error", () => undefined);
      child.stdin.end(pgm);
    });
  }
}

/** Tesseract's TSV: level, page, block, paragraph, line, word, left, top, width, height, conf, text. */
export function parseTsv(tsv: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  for (const row of tsv.split("\n").slice(1)) {
    const cells = row.split("\t");
    if (cells.length < 12 || cells[0] !== "5") continue;
    const text = cells.slice(11).join("\t").trim();
    const confidence = Number(cells[10]);
    if (!text || confidence < 0) continue;
    words.push({
      text,
      box: { x: Number(cells[6]), y: Number(cells[7]), width: Number(cells[8]), height: Number(cells[9]) },
      confidence,
      block: Number(cells[2]),
      paragraph: Number(cells[3]),
      line: Number(cells[4]),
    });
  }
  return words;
}
