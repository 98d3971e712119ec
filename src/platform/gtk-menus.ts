// GTK's exported menus (org.gtk.Menus): a GtkApplication publishes its menu bar and app menu on the
// session bus, at paths its windows' X properties name. Subscribing (Start) and leaving (End) only
// reads the model: the app shows nothing and its focus stays where it was.

import { DBUS_NAME, DBUS_PATH, IFACE } from "./atspi/names.js";
import { type DBusConnection, DBusTimeoutError } from "./dbus.js";
import type { ExportedItem } from "./types.js";

/** What a window's X properties say its GTK app exports on the session bus. */
export interface GtkExports {
  /** _GTK_UNIQUE_BUS_NAME: the app's connection on the session bus. */
  busName: string;
  /** _GTK_APPLICATION_OBJECT_PATH: a GtkApplication, whose accelerators need no menu item. */
  application?: string;
  /** _GTK_WINDOW_OBJECT_PATH: the window's own actions ("win."). */
  window?: string;
  /** _GTK_MENUBAR_OBJECT_PATH and _GTK_APP_MENU_OBJECT_PATH: the menu models it exports. */
  menus: string[];
}

/** A variant as dbus-native decodes it: [signature, [value]]. */
type Variant = [unknown, [unknown]];
/** One menu of a Start reply: its group, its id in the group, its items' attributes. */
export type ExportedMenu = [number, number, [string, Variant][][]];

const MENUS_IFACE = "org.gtk.Menus";
/** Submenus nest a group each: more rounds than any real menu bar needs. */
const ROUNDS = 8;

/**
 * The items of the menus a Start reply holds, from menu 0 of group 0, through sections and
 * submenus; `missing` names the groups they link to that the reply lacks.
 */
export function exportedItems(menus: ExportedMenu[]): { items: ExportedItem[]; missing: number[] } {
  const byId = new Map(menus.map(([group, menu, items]) => [`${group}:${menu}`, items]));
  const items: ExportedItem[] = [];
  const missing = new Set<number>();
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const found = byId.get(id);
    if (!found) {
      missing.add(Number(id.split(":")[0]));
      return;
    }
    for (const attributes of found) {
      const value = new Map(attributes.map(([key, variant]) => [key, variant[1][0]]));
      for (const link of [":section", ":submenu"]) {
        const to = value.get(link) as [number, number] | undefined;
        if (to) walk(`${to[0]}:${to[1]}`);
      }
      const label = value.get("label");
      if (typeof label !== "string") continue;
      const action = value.get("action");
      const accel = value.get("accel");
      const target = value.get("target");
      items.push({
        label: label.replace(/_(.)/gsu, "$1"),
        ...(typeof action === "string" ? { action } : {}),
        ...(typeof accel === "string" ? { accel } : {}),
        ...(typeof target === "string" || typeof target === "number" ? { target } : {}),
      });
    }
  };
  walk("0:0");
  return { items, missing: [...missing] };
}

/**
 * Every item of an exported menu model, its subscriptions ended again, and whether a submenu stayed
 * empty: one that fills as it opens (`submenu-action`: Mousepad's Open Recent). Throws where the
 * model does not answer.
 */
export async function readExportedMenu(
  session: DBusConnection,
  busName: string,
  path: string,
  timeoutMs: number,
): Promise<{ items: ExportedItem[]; partial: boolean }> {
  const call = (member: string, groups: number[]) =>
    session.call(
      { destination: busName, path, iface: MENUS_IFACE, member, signature: "au", body: [groups] },
      timeoutMs,
    );
  const menus: ExportedMenu[] = [];
  const asked: number[] = [];
  let wanted = [0];
  try {
    for (let round = 0; round < ROUNDS && wanted.length > 0; round++) {
      asked.push(...wanted);
      const [reply] = (await call("Start", wanted)) as [ExportedMenu[]];
      menus.push(...reply);
      wanted = exportedItems(menus).missing.filter((g) => !asked.includes(g));
    }
  } finally {
    await call("End", asked).catch(() => undefined);
  }
  const { items, missing } = exportedItems(menus);
  return { items, partial: missing.length > 0 };
}

/** Where GApplication exports an application id: "org.xfce.mousepad" at /org/xfce/mousepad. */
const applicationPath = (id: string): string => `/${id.replace(/\./g, "/").replace(/-/g, "_")}`;

/** A well-known bus name that may be an application id ("org.xfce.mousepad"). */
const APP_ID = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+$/;

/**
 * Under Wayland no X property names a window's exports (and sway's app_id is the program's name):
 * the GtkApplication of a process is the owner of an application id on the session bus, of that
 * pid, that answers org.gtk.Actions at the id's path. Its menu models are not looked for there.
 * Undefined: none; throws where the bus or the app did not answer.
 */
export async function gtkApplicationOfPid(
  session: DBusConnection,
  pid: number,
  timeoutMs: number,
): Promise<GtkExports | undefined> {
  const bus = async (member: string, name?: string) =>
    (
      await session.call(
        {
          destination: DBUS_NAME,
          path: DBUS_PATH,
          iface: IFACE.dbus,
          member,
          ...(name === undefined ? {} : { signature: "s", body: [name] }),
        },
        timeoutMs,
      )
    )[0];
  // A name whose owner left meanwhile is no answer; an app that does not answer is not known to be none.
  const gone = (error: unknown) => {
    if (error instanceof DBusTimeoutError) throw error;
    return undefined;
  };
  const names = ((await bus("ListNames")) as string[]).filter((name) => APP_ID.test(name));
  const owners = await Promise.all(
    names
      .map(async (id) => {
        const owner = String(await bus("GetNameOwner", id));
        return Number(await bus("GetConnectionUnixProcessID", owner)) === pid ? { id, owner } : undefined;
      })
      .map((owner) => owner.catch(gone)),
  );
  for (const found of owners) {
    if (!found) continue;
    const application = applicationPath(found.id);
    const actions = { destination: found.owner, path: application, iface: "org.gtk.Actions", member: "List" };
    if (await session.call(actions, timeoutMs).then(() => true, gone))
      return { busName: found.owner, application, menus: [] };
  }
  return undefined;
}

/**
 * The states of the actions a GTK app exports at a path (org.gtk.Actions.DescribeAll), by name: a
 * toggle's boolean, a radio group's chosen target. Stateless actions are left out. Reading them
 * changes nothing in the app.
 */
export async function readActionStates(
  session: DBusConnection,
  busName: string,
  path: string,
  timeoutMs: number,
): Promise<Map<string, unknown>> {
  const [described] = (await session.call(
    { destination: busName, path, iface: "org.gtk.Actions", member: "DescribeAll" },
    timeoutMs,
  )) as [[string, [boolean, string, Variant[]]][]];
  const states = new Map<string, unknown>();
  for (const [name, [, , state]] of described) {
    const value = state[0]?.[1][0];
    if (value !== undefined) states.set(name, value);
  }
  return states;
}

/** An exported item's toggled state: checked or not, and whether it is one of a radio group. */
export interface ItemState {
  checked: boolean;
  radio: boolean;
}

/**
 * Whether each exported item shows checked, by its label, where its action has a state: a toggle
 * (a boolean) or a radio item (its target chosen). A label two items share with different answers
 * is left out: which one the tree shows cannot be told.
 */
export function checkedItems(items: ExportedItem[], states: Map<string, unknown>): Map<string, ItemState> {
  const checked = new Map<string, ItemState>();
  const torn = new Set<string>();
  for (const { label, action, target } of items) {
    const state = action === undefined ? undefined : states.get(action);
    const answer: ItemState | undefined =
      typeof state === "boolean" && target === undefined
        ? { checked: state, radio: false }
        : target !== undefined && (typeof state === "string" || typeof state === "number")
          ? { checked: state === target, radio: true }
          : undefined;
    if (answer === undefined) continue;
    const known = checked.get(label);
    if (known && (known.checked !== answer.checked || known.radio !== answer.radio)) torn.add(label);
    checked.set(label, answer);
  }
  for (const label of torn) checked.delete(label);
  return checked;
}
