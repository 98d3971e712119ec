// What `doctor` says under sway: its IPC (outputs and windows), and what deskhand's own Wayland
// hands need of the compositor (a virtual pointer and keyboard, screencopy or grim). Read-only:
// nothing is clicked, typed or written.
import { existsSync } from "node:fs";
import { type DesktopCheck, failedCheck, message } from "../checks.js";
import { screencopyUnavailable } from "./screencopy.js";
import { SwayIpc, type SwayRect, swayWindows } from "./sway.js";
import { WaylandConnection } from "./wire.js";

export async function swayChecks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck[]> {
  return [...(await ipcChecks(env, timeoutMs)), ...(await handsChecks(env, timeoutMs))];
}

/** sway's IPC: its outputs (where points and pixels part) and its windows. */
async function ipcChecks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck[]> {
  const checks: DesktopCheck[] = [];
  let ipc: SwayIpc | undefined;
  try {
    ipc = await SwayIpc.open(env.SWAYSOCK!, timeoutMs);
    const [version, tree, outputs] = await Promise.all([
      ipc.version(timeoutMs),
      ipc.tree(timeoutMs),
      ipc.request<{ name: string; rect: SwayRect; scale?: number; active?: boolean }[]>(3, "", timeoutMs),
    ]);
    const windows = swayWindows(tree);
    // Where points and pixels part: a scaled output draws more pixels than the points input takes.
    checks.push({
      name: "outputs",
      status: "ok",
      value: outputs
        .filter((o) => o.active !== false)
        .map(
          (o) => `${o.name} ${o.rect.width}x${o.rect.height}@${o.rect.x},${o.rect.y} scale ${o.scale ?? 1}`,
        )
        .join("; "),
    });
    checks.push({
      name: "sway IPC",
      status: "ok",
      value: `sway ${version.human_readable}: ${windows.length} window${windows.length === 1 ? "" : "s"}${
        windows.length
          ? ` (${windows
              .slice(0, 3)
              .map((w) => JSON.stringify(w.title))
              .join(", ")}${windows.length > 3 ? ", …" : ""})`
          : ""
      }`,
    });
  } catch (error) {
    checks.push(failedCheck("sway IPC", error, `cannot reach ${env.SWAYSOCK}: ${message(error)}`));
  } finally {
    ipc?.close();
  }
  return checks;
}

/** What deskhand's own Wayland hands need: a virtual pointer and keyboard, screencopy or grim. */
async function handsChecks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck[]> {
  const checks: DesktopCheck[] = [];
  let wl: WaylandConnection | undefined;
  /** Why deskhand cannot copy the screen itself; "" when it can; undefined: the display was not reached. */
  let screencopy: string | undefined;
  try {
    wl = await WaylandConnection.open(env, timeoutMs);
    const pointer = wl.globals.has("zwlr_virtual_pointer_manager_v1");
    checks.push({
      name: "pointer",
      status: pointer ? "ok" : "unavailable",
      value: pointer
        ? "deskhand's own virtual pointer (zwlr_virtual_pointer_v1)"
        : "UNAVAILABLE (the compositor offers no zwlr_virtual_pointer_manager_v1)",
    });
    // Read from what the compositor offers and what this Node can pass: doctor makes no keyboard.
    const keyboard = !wl.globals.has("zwp_virtual_keyboard_manager_v1")
      ? "the compositor offers no zwp_virtual_keyboard_manager_v1"
      : wl.noDescriptors
        ? `its keymap must be passed as a file descriptor: ${wl.noDescriptors}`
        : undefined;
    checks.push(
      keyboard
        ? {
            name: "keyboard",
            status: "unavailable",
            value: `UNAVAILABLE (${keyboard})`,
            hint: "set text with act set_value or fill_form",
          }
        : {
            name: "keyboard",
            status: "ok",
            value:
              "deskhand's own virtual keyboard (zwp_virtual_keyboard_v1, us keymap, spare keys for other characters)",
          },
    );
    screencopy = screencopyUnavailable(wl) ?? "";
  } catch (error) {
    for (const name of ["pointer", "keyboard"])
      checks.push(failedCheck(name, error, `cannot reach the Wayland display: ${message(error)}`));
  } finally {
    wl?.close();
  }
  const grim = existsSync("/usr/bin/grim");
  checks.push(
    screencopy === ""
      ? {
          name: "screenshots",
          status: "ok",
          value: `deskhand's own screencopy (zwlr_screencopy_v1); ${grim ? "grim" : "nothing (grim is not installed)"} for a region across outputs or on a scaled one`,
        }
      : grim
        ? {
            name: "screenshots",
            status: "ok",
            value: `grim${screencopy ? ` (no screencopy of deskhand's own: ${screencopy})` : ""}`,
          }
        : {
            name: "screenshots",
            status: "unavailable",
            value: `UNAVAILABLE (${screencopy || "the Wayland display cannot be reached"}, and grim is not installed)`,
            hint: "apt-get install grim",
          },
  );
  return checks;
}
