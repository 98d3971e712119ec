// deskhand's GNOME Shell extension: the part its two builds share (GNOME 43–44's and 45's and
// later, src/platform/gnome/extension.ts). A D-Bus object, org.deskhand.Shell at /org/deskhand/Shell
// on the session bus, that lists windows and acts on them, moves a virtual pointer and keyboard,
// commits text, sets the clipboard and takes screenshots. It answers only a caller that gives the
// token it wrote, when enabled, to a 0600 file in the user's runtime folder; whatever a caller
// holds pressed is let go the moment that caller leaves the bus.
function deskhandService({ Gio, GLib, Clutter, Meta, Shell, St, Main }, version) {
  const NAME = "org.deskhand.Shell";
  const PATH = "/org/deskhand/Shell";
  const arg = (name, type, out) => `<arg name="${name}" type="${type}" direction="${out ? "out" : "in"}"/>`;
  const method = (name, ins, outs = []) =>
    `<method name="${name}">${arg("token", "s")}${ins.map(([n, t]) => arg(n, t)).join("")}${outs
      .map(([n, t]) => arg(n, t, true))
      .join("")}</method>`;
  const XML = `<node><interface name="${NAME}">
    <method name="Version">${arg("version", "s", true)}</method>
    ${method("Windows", [], [["json", "s"]])}
    ${method("Act", [["id", "s"], ["action", "s"]], [["found", "b"]])}
    ${method("Pointer", [["x", "d"], ["y", "d"]])}
    ${method("Button", [["button", "u"], ["pressed", "b"]])}
    ${method("Scroll", [["direction", "u"], ["notches", "u"]])}
    ${method("Keys", [["keys", "a(ub)"]])}
    ${method("Commit", [["text", "s"]], [["focused", "b"]])}
    ${method("SetClipboard", [["text", "s"]])}
    ${method("Clipboard", [], [["text", "s"]])}
    ${method("Capture", [["x", "i"], ["y", "i"], ["width", "i"], ["height", "i"], ["path", "s"]], [["scale", "d"]])}
    ${method("Screen", [], [["json", "s"]])}
    ${method("Cursor", [], [["x", "i"], ["y", "i"]])}
    ${method("LeaveOverview", [])}
  </interface></node>`;
  const MENUS = new Set(
    ["DROPDOWN_MENU", "POPUP_MENU", "COMBO", "TOOLTIP", "MENU", "DND", "NOTIFICATION"].map((t) => Meta.WindowType[t]),
  );
  const LISTED = new Set(
    ["NORMAL", "DIALOG", "MODAL_DIALOG", "UTILITY", "TOOLBAR"].map((t) => Meta.WindowType[t]),
  );
  const now = () => GLib.get_monotonic_time();
  const rect = (r) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
  let exported;
  let nameId = 0;
  let token = "";
  let pointer;
  let keyboard;
  /** What each caller holds: its unique name → { keys: Set<keyval>, buttons: Set<button>, watch }. */
  const holders = new Map();
  const tokenFile = () => GLib.build_filenamev([GLib.get_user_runtime_dir(), "deskhand-gnome-token"]);

  function metaWindows() {
    return global
      .get_window_actors()
      .map((a) => a.get_meta_window())
      .filter((w) => w && (LISTED.has(w.get_window_type()) || MENUS.has(w.get_window_type())));
  }

  /** The monitor holding a point (Meta.Rectangle is gone in 45, so no rectangle is asked). */
  function monitorAt(x, y) {
    for (let i = 0; i < global.display.get_n_monitors(); i++) {
      const m = global.display.get_monitor_geometry(i);
      if (x >= m.x && y >= m.y && x < m.x + m.width && y < m.y + m.height) return i;
    }
    return global.display.get_primary_monitor();
  }

  function byId(id) {
    return metaWindows().find((w) => String(w.get_id()) === String(id));
  }

  function holder(sender) {
    let held = holders.get(sender);
    if (!held) {
      held = { keys: new Set(), buttons: new Set(), watch: 0 };
      // A caller that leaves (deskhand killed) lets go of everything it held.
      held.watch = Gio.bus_watch_name_on_connection(
        Gio.DBus.session,
        sender,
        Gio.BusNameWatcherFlags.NONE,
        null,
        () => release(sender),
      );
      holders.set(sender, held);
    }
    return held;
  }

  function release(sender) {
    const held = holders.get(sender);
    if (!held) return;
    holders.delete(sender);
    Gio.bus_unwatch_name(held.watch);
    for (const keyval of held.keys) keyboard.notify_keyval(now(), keyval, Clutter.KeyState.RELEASED);
    for (const button of held.buttons) pointer.notify_button(now(), button, Clutter.ButtonState.RELEASED);
  }

  const methods = {
    Windows() {
      const windows = metaWindows();
      const stack = global.display.sort_windows_by_stacking(windows);
      const focus = global.display.get_focus_window();
      return JSON.stringify(
        windows.map((w) => ({
          id: w.get_id(),
          pid: w.get_pid(),
          title: w.get_title() ?? "",
          windowClass: w.get_wm_class() ?? "",
          frame: rect(w.get_frame_rect()),
          buffer: rect(w.get_buffer_rect()),
          stacking: stack.indexOf(w),
          active: w === focus,
          minimized: !!w.minimized,
          x11: w.get_client_type() === Meta.WindowClientType.X11,
          // The scale its app draws at: the Shell's points are pixels, the app's are that many times larger.
          scale: global.display.get_monitor_scale(w.get_monitor()),
          menu: MENUS.has(w.get_window_type()),
        })),
      );
    },
    Act(id, action) {
      const w = byId(id);
      if (!w) return false;
      const time = global.get_current_time();
      if (action === "activate") Main.activateWindow(w, time);
      else if (action === "minimize") w.minimize();
      else if (action === "restore") w.unminimize();
      else if (action === "close") w.delete(time);
      else throw new Error(`no action ${action}`);
      return true;
    },
    Pointer(x, y) {
      pointer.notify_absolute_motion(now(), x, y);
    },
    Button(button, pressed, sender) {
      const held = holder(sender);
      if (pressed) held.buttons.add(button);
      else held.buttons.delete(button);
      pointer.notify_button(now(), button, pressed ? Clutter.ButtonState.PRESSED : Clutter.ButtonState.RELEASED);
    },
    Scroll(direction, notches) {
      for (let i = 0; i < notches; i++)
        pointer.notify_discrete_scroll(now(), direction, Clutter.ScrollSource.WHEEL);
    },
    Keys(keys, sender) {
      const held = holder(sender);
      for (const [keyval, pressed] of keys) {
        if (pressed) held.keys.add(keyval);
        else held.keys.delete(keyval);
        keyboard.notify_keyval(now(), keyval, pressed ? Clutter.KeyState.PRESSED : Clutter.KeyState.RELEASED);
      }
    },
    Commit(text) {
      // Only a client with the text input's focus takes it (GTK 3 and 4 on Wayland; not Qt 5).
      if (!Main.inputMethod.currentFocus) return false;
      Main.inputMethod.commit(text);
      return true;
    },
    SetClipboard(text) {
      St.Clipboard.get_default().set_text(St.ClipboardType.CLIPBOARD, text);
    },
    Screen() {
      const [width, height] = global.display.get_size();
      const monitor = global.display.get_primary_monitor();
      return JSON.stringify({ x: 0, y: 0, width, height, scale: global.display.get_monitor_scale(monitor) });
    },
    Cursor() {
      const [x, y] = global.get_pointer();
      return [x, y];
    },
    // A headless Shell starts in the overview; deskhand's sandbox asks for its windows instead.
    LeaveOverview() {
      if (Main.layoutManager._startingUp)
        Main.layoutManager.connect("startup-complete", () => Main.overview.hide());
      else Main.overview.hide();
    },
  };

  const asynchronous = {
    Clipboard(reply) {
      St.Clipboard.get_default().get_text(St.ClipboardType.CLIPBOARD, (_clip, text) => reply([text ?? ""]));
    },
    Capture(reply, fail, x, y, width, height, path) {
      const stream = Gio.File.new_for_path(path).replace(null, false, Gio.FileCreateFlags.PRIVATE, null);
      new Shell.Screenshot().screenshot_area(x, y, width, height, stream, (shot, result) => {
        try {
          shot.screenshot_area_finish(result);
          stream.close(null);
          reply([global.display.get_monitor_scale(monitorAt(x, y))]);
        } catch (error) {
          fail(error);
        }
      });
    },
  };

  const OUT = {
    Windows: "(s)",
    Act: "(b)",
    Commit: "(b)",
    Screen: "(s)",
    Cursor: "(ii)",
    Clipboard: "(s)",
    Capture: "(d)",
  };

  function call(member, params, invocation) {
    const fail = (error) =>
      invocation.return_dbus_error(`${NAME}.Error.Failed`, String(error?.message ?? error));
    if (member === "Version") return invocation.return_value(new GLib.Variant("(s)", [version]));
    const [given, ...args] = params.deepUnpack();
    // The token is a file only deskhand's user can read: no other program drives this desktop.
    if (!token || given !== token)
      return invocation.return_dbus_error(`${NAME}.Error.Denied`, "the caller gave no valid deskhand token");
    const reply = (values) => invocation.return_value(OUT[member] ? new GLib.Variant(OUT[member], values) : null);
    try {
      if (asynchronous[member]) return asynchronous[member](reply, fail, ...args);
      const value = methods[member](...args, invocation.get_sender());
      return reply(OUT[member] === "(ii)" ? value : [value]);
    } catch (error) {
      return fail(error);
    }
  }

  function writeToken() {
    token = GLib.uuid_string_random() + GLib.uuid_string_random();
    const path = tokenFile();
    GLib.file_set_contents_full(path, token, GLib.FileSetContentsFlags.CONSISTENT, 0o600);
  }

  return {
    enable() {
      const seat = (global.stage.context?.get_backend?.() ?? Clutter.get_default_backend()).get_default_seat();
      pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
      keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
      writeToken();
      const info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0];
      exported = Gio.DBus.session.register_object(
        PATH,
        info,
        (_c, _s, _p, _i, member, params, invocation) => call(member, params, invocation),
        null,
        null,
      );
      nameId = Gio.bus_own_name_on_connection(Gio.DBus.session, NAME, Gio.BusNameOwnerFlags.NONE, null, null);
    },
    disable() {
      for (const sender of [...holders.keys()]) release(sender);
      if (nameId) Gio.bus_unown_name(nameId);
      if (exported) Gio.DBus.session.unregister_object(exported);
      nameId = 0;
      exported = undefined;
      token = "";
      GLib.unlink(tokenFile());
      pointer = undefined;
      keyboard = undefined;
    },
  };
}
