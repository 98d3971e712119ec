// Text from pixels: the capability interface every recognition engine implements. Boxes are in the
// pixels of the image given; mapping them to the screen is the caller's (src/core/ocr.ts).

import type { Rect } from "../types.js";
import { CodedError } from "../types.js";

/** One byte a pixel, rows without padding; 0 black, 255 white. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface RecognizedWord {
  text: string;
  box: Rect;
  /** 0–100, as the engine rates its own reading. */
  confidence: number;
  /** The engine's layout: words of one line share block, paragraph and line, in reading order. */
  block: number;
  paragraph: number;
  line: number;
}

export interface RecognizerInfo {
  engine: string;
  version: string | null;
  /** Languages installed, by the engine's codes ("eng", "deu"). */
  languages: string[];
  available: boolean;
  /** Why it is not available, or where its languages come from. */
  detail: string;
}

export interface RecognizeOptions {
  languages: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * "sparse" (the default): text anywhere, as on a screen; "lines": an image of a few lines of text
   * and nothing else (a combo box's face), where a lone "A" is read that sparse reading misses.
   */
  layout?: "sparse" | "lines";
}

export interface TextRecognizer {
  describe(): Promise<RecognizerInfo>;
  /** The words of an image, in the engine's reading order. */
  recognize(image: GrayImage, options: RecognizeOptions): Promise<RecognizedWord[]>;
}

/** No engine is installed, or it failed in a way that says it cannot work here. */
export class RecognizerUnavailable extends CodedError {
  override readonly name = "RecognizerUnavailable";
  readonly code = "ocr_unavailable";
  readonly next =
    "Install Tesseract (apt-get install tesseract-ocr tesseract-ocr-eng); `deskhand doctor` shows what is there.";
}

/** A language asked for is not installed. */
export class LanguageMissing extends CodedError {
  override readonly name = "LanguageMissing";
  readonly code = "invalid_params";
  readonly next =
    "Ask for installed languages only, or install the one you need (apt-get install tesseract-ocr-<code>).";
  override get details() {
    return { installed: this.installed };
  }
  constructor(
    readonly missing: string[],
    readonly installed: string[],
  ) {
    super(
      `OCR language ${missing.map((l) => JSON.stringify(l)).join(", ")} is not installed (installed: ${installed.join(", ") || "none"})`,
    );
  }
}
