// The desktops table: a session's environment picks one line, the first that claims it; where none
// does, the reason says what deskhand looked for and what to do.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DESKTOPS, desktopOf } from "../../src/platform/desktops.js";

const kindOf = (env: NodeJS.ProcessEnv) => {
  const found = desktopOf(env);
  return "desktop" in found ? found.desktop.kind : found.none;
};

describe("the desktops table", () => {
  it("picks each desktop from its session's environment", () => {
    assert.equal(kindOf({ DISPLAY: ":3" }), "x11");
    assert.equal(kindOf({ WAYLAND_DISPLAY: "wayland-1", SWAYSOCK: "/run/sway.sock" }), "sway");
    assert.equal(kindOf({ WAYLAND_DISPLAY: "wayland-kde", XDG_CURRENT_DESKTOP: "KDE" }), "kwin");
    assert.equal(kindOf({ WAYLAND_DISPLAY: "wayland-0", XDG_CURRENT_DESKTOP: "ubuntu:GNOME" }), "gnome");
    // An X sandbox inside a Wayland desktop is X11: DISPLAY alone chooses where the session is not Wayland's.
    assert.equal(
      kindOf({ WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":1", XDG_CURRENT_DESKTOP: "GNOME" }),
      "x11",
    );
  });

  it("says why where it knows no desktop, never picks one anyway", () => {
    assert.match(kindOf({ WAYLAND_DISPLAY: "wayland-0", XDG_CURRENT_DESKTOP: "Hyprland" }), /not sway/);
    assert.match(kindOf({}), /neither DISPLAY nor WAYLAND_DISPLAY is set/);
  });

  it("has one line a kind, and the sandbox starts each desktop of the table that says it can", () => {
    const kinds = DESKTOPS.map((d) => d.kind);
    assert.equal(new Set(kinds).size, kinds.length);
    assert.deepEqual(
      DESKTOPS.flatMap((d) => (d.sandboxOption ? [d.sandboxOption] : [])),
      ["wayland", "kde", "gnome"],
    );
  });
});
