// Picks the backend for this platform. A platform without one says so plainly: no stub pretends to work.

import { AtspiBackend, type AtspiBackendOptions } from "./atspi/backend.js";
import { adoptDesktop, type Discovery, describeDiscovery } from "./desktop-discovery.js";
import { desktopOf } from "./desktops.js";
import { type Hands, HandsUnavailable } from "./hands.js";
import { TesseractRecognizer } from "./ocr/tesseract.js";
import type { TextRecognizer } from "./ocr/types.js";
import type { AccessibilityBackend } from "./types.js";
import { CodedError } from "./types.js";

class UnsupportedPlatform extends CodedError {
  override readonly name = "UnsupportedPlatform";
  readonly code = "unsupported_platform";
  readonly next = "Use deskhand on Linux: X11, or Wayland under sway, KDE Plasma (KWin) or GNOME Shell.";
}

const PLANNED: Record<string, string> = {
  win32: "Windows (UI Automation and Java Access Bridge) is planned; no backend ships yet",
  darwin: "macOS (AX) is planned; no backend ships yet",
};

export function platformSupport(platform: string = process.platform): { supported: boolean; detail: string } {
  if (platform === "linux")
    return {
      supported: true,
      detail:
        "AT-SPI2 over D-Bus; windows and input from X11, or under Wayland from sway, KWin or GNOME Shell",
    };
  return { supported: false, detail: PLANNED[platform] ?? `no backend for ${platform}` };
}

export async function connectBackend(options: AtspiBackendOptions = {}): Promise<AccessibilityBackend> {
  const support = platformSupport();
  if (!support.supported)
    throw new UnsupportedPlatform(`deskhand cannot read windows here: ${support.detail}.`);
  const env = options.env ?? process.env;
  const discovery = adoptDesktop(env);
  return AtspiBackend.connect({ ...options, env }).catch((error: unknown) => {
    throw withDiscovery(error, discovery);
  });
}

/** A desktop that could not be reached says where deskhand looked for it, when it looked. */
function withDiscovery(error: unknown, discovery: Discovery): unknown {
  const said = describeDiscovery(discovery);
  if (said && error instanceof Error && !error.message.includes(said)) error.message += ` (${said})`;
  return error;
}

export async function connectHands(options: { env?: NodeJS.ProcessEnv } = {}): Promise<Hands> {
  const support = platformSupport();
  if (!support.supported)
    throw new UnsupportedPlatform(`deskhand has no input or screenshots here: ${support.detail}.`);
  const env = options.env ?? process.env;
  const discovery = adoptDesktop(env);
  return openHands(env).catch((error: unknown) => {
    throw withDiscovery(error, discovery);
  });
}

/** The desktop's own hands (desktops.ts); where deskhand knows no desktop here, why. */
async function openHands(env: NodeJS.ProcessEnv): Promise<Hands> {
  const found = desktopOf(env);
  if ("none" in found) throw new HandsUnavailable(found.none);
  return found.desktop.hands(env);
}

/** Text recognition from pixels: Tesseract where it is installed (doctor and the tools say when not). */
export function createRecognizer(options: { env?: NodeJS.ProcessEnv } = {}): TextRecognizer {
  return new TesseractRecognizer("tesseract", options.env ?? process.env);
}

export { processAlive } from "./processes.js";
