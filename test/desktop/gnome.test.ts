// The hands' twins on GNOME Shell (compositor-suite.ts), headless in deskhand's own sandbox
// (`Desktop.start({ gnome: true })`) with deskhand's Shell extension: its window list, Clutter's
// virtual pointer and keyboard, text committed or pasted, its screenshots. What only GNOME has: the
// extension's token, which keeps other callers out.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { DBusConnection } from "../../src/platform/atspi/dbus.js";
import { diagnose } from "../../src/platform/diagnostics.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import { SHELL_NAME, SHELL_PATH, TOKEN_FILE } from "../../src/platform/wayland/gnome-extension.js";
import { GnomeShell } from "../../src/platform/wayland/gnome-shell.js";
import { windowNumber } from "../../src/platform/wayland/kwin.js";
import { compositorHandsSuite } from "./compositor-suite.js";

compositorHandsSuite({
  name: "GNOME Shell (Wayland)",
  compositor: "GNOME Shell",
  prefix: "GNOME",
  file: "gnome",
  start: () => Desktop.start({ gnome: true }),
  async truth(env) {
    const shell = await GnomeShell.open(env, 5000);
    return {
      windows: async () => (await shell.windows()).map((w) => ({ ...w, id: windowNumber(String(w.id)) })),
      close: () => shell.close(),
    };
  },
  hands: "openGnomeHands",
  handsModule: "gnome-hands",
  more({ env }) {
    it("doctor finds the extension; a caller without its token is refused, and the token is private", async () => {
      const checks = await diagnose(env());
      const session = Object.fromEntries(
        checks.filter((c) => c.section === "session").map((c) => [c.name, `${c.status}: ${c.value}`]),
      );
      for (const name of ["extension", "GNOME Shell", "token", "screenshots", "text outside the keymap"])
        assert.match(session[name] ?? "", /^ok: /, `${name}: ${JSON.stringify(session)}`);
      const token = join(env().XDG_RUNTIME_DIR!, TOKEN_FILE);
      assert.equal(statSync(token).mode & 0o777, 0o600);
      const bus = await DBusConnection.open(env().DBUS_SESSION_BUS_ADDRESS!, { timeoutMs: 5000 });
      try {
        const denied = await bus
          .call(
            {
              destination: SHELL_NAME,
              path: SHELL_PATH,
              iface: SHELL_NAME,
              member: "Pointer",
              signature: "sdd",
              body: ["not-the-token", 10, 10],
            },
            5000,
          )
          .then(
            () => undefined,
            (error: Error) => error,
          );
        assert.match(String(denied), /Denied/, "the extension refused a caller with no token");
      } finally {
        bus.close();
      }
    });
  },
});
