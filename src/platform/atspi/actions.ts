// Semantic actions through AT-SPI: the element's own Action, EditableText, Value, Selection, Table
// and Component interfaces. Every call is bounded; a call that does not answer in time (an action that
// opened a modal dialog, say) is reported as an unknown outcome, never waited on. Every call that makes
// the app do something goes through `app.act` (the bus, never the direct socket): see app.ts.

import { DBusTimeoutError } from "../dbus.js";
import { saysSelectable } from "../roles.js";
import type { ActionReport, RawNode, ScrollAmount, SemanticAction } from "../types.js";
import {
  ActionRejected,
  AppNotResponding,
  flipsState,
  OutOfRange,
  ReadOnlyElement,
  UnsupportedAction,
} from "../types.js";
import { type AtspiApp, isNotImplemented } from "./app.js";
import { chosenItemPath } from "./enrich.js";
import { IFACE } from "./names.js";
import { cleanName, handleOf, shortInterfaces } from "./reader.js";
import { roleName } from "./roles.js";
import { statesFromBitset } from "./states.js";

const INVOKE_NAMES = /^(click|press|activate|jump|open|invoke|doDefault|push)$/i;
// Web engines name a check box's action for what it will do next: "check" or "uncheck".
const TOGGLE_NAMES = /^(toggle|click|press|activate|check|uncheck|cycle)$/i;
/** Between selecting an option and reading whether it took. */
const SELECT_SETTLE_MS = 100;
const EXPAND_NAMES = /^(expand or contract|expand or collapse|toggle ?expand|toggleexpand|expand|activate)$/i;
// A menu title's press opens its menu (GTK's and AbiWord's menus say "click"): expanding is that press.
const EXPAND_MENU_NAMES =
  /^(expand or contract|expand or collapse|toggle ?expand|toggleexpand|expand|activate|click|open)$/i;
const COLLAPSE_NAMES =
  /^(expand or contract|expand or collapse|toggle ?expand|toggleexpand|collapse|activate)$/i;
/** Component.ScrollTo's AtspiScrollType ANYWHERE. */
const SCROLL_ANYWHERE = 6;

export interface ActionTarget {
  app: AtspiApp;
  path: string;
  node: RawNode;
  /** The element's action names, read fresh. */
  actions: string[];
  parentPath: string | undefined;
}

/** Whether the element has two states a press flips: a check box, a toggle button, a checkable item. */
const togglable = (target: ActionTarget) => flipsState(target.node.role, target.node.states, target.actions);

/** What the element supports, for an `unsupported_pattern` refusal. */
function supportedActions(target: ActionTarget): string[] {
  const interfaces = target.node.interfaces ?? [];
  const supported = target.actions.map((a) => `action:${a}`);
  // A check box's click is its toggle: act toggle runs it and reads the state back.
  if (togglable(target) && (target.actions.some((a) => TOGGLE_NAMES.test(a)) || target.actions.length === 1))
    supported.push("toggle");
  if (interfaces.includes("EditableText")) supported.push("set_value");
  if (interfaces.includes("Value")) supported.push("set_range");
  if (interfaces.includes("Component")) supported.push("focus", "scroll_into_view");
  if (interfaces.includes("Selection") || interfaces.includes("Table")) supported.push("select");
  return supported;
}

function unsupported(target: ActionTarget, what: string): UnsupportedAction {
  const supported = supportedActions(target);
  // Its select chooses among what it holds: said with what it needs, so that a refused bare select
  // does not read as supported.
  const interfaces = target.node.interfaces ?? [];
  const needs = interfaces.includes("Table") ? "select {row}" : "select {option}";
  const said = supported.map((s) => (s === "select" ? needs : s));
  return new UnsupportedAction(
    `${target.node.role} ${JSON.stringify(target.node.name ?? "")} does not support ${what}; it supports ${said.join(", ") || "nothing"}`,
    supported,
  );
}

async function bounded(
  route: string,
  call: () => Promise<unknown[]>,
  target?: ActionTarget,
): Promise<ActionReport> {
  try {
    const [returned] = await call();
    return { route, outcome: "completed", returned };
  } catch (error) {
    if (error instanceof DBusTimeoutError) {
      return {
        route,
        outcome: "unknown",
        detail: "the call did not return in time: the app may be showing a modal dialog, or hung",
      };
    }
    // The toolkit's own D-Bus error text says nothing an agent can use: name the element instead.
    if (isNotImplemented(error)) {
      const what = target ? `${target.node.role} ${JSON.stringify(target.node.name ?? "")}` : "the element";
      throw new UnsupportedAction(
        `${what} does not implement ${route}`,
        target ? supportedActions(target) : [],
      );
    }
    throw error;
  }
}

function requireEnabled(target: ActionTarget): void {
  const states = target.node.states ?? [];
  // GTK3 answers DoAction on a disabled widget with true and does nothing: check first.
  if (!states.includes("enabled") && !states.includes("sensitive") && target.node.states !== undefined) {
    throw new ActionRejected(`${target.node.role} ${JSON.stringify(target.node.name ?? "")} is disabled`);
  }
}

async function doAction(
  target: ActionTarget,
  names: RegExp,
  what: string,
  timeoutMs: number,
): Promise<ActionReport> {
  requireEnabled(target);
  let index = target.actions.findIndex((a) => names.test(a));
  // A sole action is the element's press, whatever its name (a JVM names it in its own language,
  // GetName too: "Klicken"); on a check box or toggle button, that press toggles it.
  if (
    index < 0 &&
    target.actions.length === 1 &&
    (what === "invoke" || (what === "toggle" && togglable(target)))
  )
    index = 0;
  if (index < 0) {
    const inner = await twin(target, timeoutMs);
    if (!inner) throw unsupported(target, what);
    // The twin is pressed: its own action toggles what the wrapper reports (expanded, say).
    const report = await doAction(
      inner,
      what === "toggle" ? TOGGLE_NAMES : INVOKE_NAMES,
      "invoke",
      timeoutMs,
    );
    return { ...report, route: `${report.route} on its twin child (same role and name)` };
  }
  const name = target.actions[index]!;
  return bounded(
    `Action.DoAction(${JSON.stringify(name)})`,
    () => target.app.act(target.path, IFACE.action, "DoAction", timeoutMs, "i", [index]),
    target,
  );
}

/**
 * GTK 4 wraps some controls in an accessible of the same role and name that has no actions of its own:
 * a GtkMenuButton is a push button holding its own toggle button. A person clicking the wrapper presses
 * the inner one, so an action asked of the wrapper goes to that only child, and the route says so.
 */
async function twin(target: ActionTarget, timeoutMs: number): Promise<ActionTarget | undefined> {
  if (target.actions.length > 0) return undefined;
  const { app, path, node } = target;
  const [refs] = await app.call(path, IFACE.accessible, "GetChildren", timeoutMs).catch(() => [[]]);
  // An open menu button also holds its popover: the twin is the one child of the same role and name.
  const kids = (refs as [string, string][]).slice(0, 4).map(([, child]) => child);
  const described = await Promise.all(
    kids.map(async (child, indexInParent) => {
      const [role, name] = await Promise.all([
        app.call(child, IFACE.accessible, "GetRole", timeoutMs).then(([r]) => roleName(Number(r))),
        app.property(child, IFACE.accessible, "Name", timeoutMs).then((n) => cleanName(String(n), app)),
      ]).catch(() => []);
      return { child, indexInParent, role, name };
    }),
  );
  const twins = described.filter((kid) => kid.role === node.role && kid.name === (node.name ?? ""));
  if (twins.length !== 1) return undefined;
  const { child, indexInParent, role, name } = twins[0]!;
  const [states, actions, interfaces] = await Promise.all([
    app
      .call(child, IFACE.accessible, "GetState", timeoutMs)
      .then(([bits]) => statesFromBitset(bits as number[])),
    app.actionNames(child, timeoutMs).then(
      ({ names }) => names,
      () => [],
    ),
    app
      .call(child, IFACE.accessible, "GetInterfaces", timeoutMs)
      .then(([i]) => shortInterfaces(i as string[])),
  ]).catch(() => []);
  if (!actions || actions.length === 0) return undefined;
  return {
    app,
    path: child,
    node: { ...node, role: role!, name: name!, states, interfaces, indexInParent },
    actions,
    parentPath: path,
  };
}

async function setValue(target: ActionTarget, text: string, timeoutMs: number): Promise<ActionReport> {
  const interfaces = target.node.interfaces ?? [];
  if (!interfaces.includes("EditableText")) throw unsupported(target, "set_value (EditableText)");
  const states = target.node.states ?? [];
  if (states.includes("read only") || (target.node.states !== undefined && !states.includes("editable"))) {
    throw new ReadOnlyElement(`${target.node.role} ${JSON.stringify(target.node.name ?? "")} is read-only`);
  }
  requireEnabled(target);
  return bounded("EditableText.SetTextContents", () =>
    target.app.act(target.path, IFACE.editableText, "SetTextContents", timeoutMs, "s", [text]),
  );
}

async function setRange(target: ActionTarget, value: number, timeoutMs: number): Promise<ActionReport> {
  if (!(target.node.interfaces ?? []).includes("Value")) throw unsupported(target, "set_range (Value)");
  if ((target.node.states ?? []).includes("read only")) throw new ReadOnlyElement("the element is read-only");
  requireEnabled(target);
  const [minimum, maximum] = await Promise.all([
    target.app.property(target.path, IFACE.value, "MinimumValue", timeoutMs),
    target.app.property(target.path, IFACE.value, "MaximumValue", timeoutMs),
  ]);
  // A range of no width says nothing (Firefox's number field without max reports 0–0 and holds 2).
  const known = Number(maximum) > Number(minimum);
  if (known && (value < Number(minimum) || value > Number(maximum))) {
    throw new ActionRejected(`${value} is outside the element's range ${minimum}–${maximum}`);
  }
  const keys = await pageSteps(target, value, timeoutMs);
  if (keys) return { route: "none by the toolkit (it would not tell the page)", outcome: "completed", keys };
  return bounded("Value.CurrentValue", () =>
    target.app.act(target.path, IFACE.properties, "Set", timeoutMs, "ssv", [
      IFACE.value,
      "CurrentValue",
      ["d", value],
    ]),
  );
}

/** Steps a page's number field or range is moved by keys at most (one step of one each). */
const PAGE_STEPS = 100;

/**
 * The arrow presses that move Firefox's number field or range to `value`: its Value is set without
 * telling the page (no input event; a total beside it stays), the arrow keys tell it. Only where a
 * whole number is that many steps of one away; otherwise none, and its Value is set.
 */
async function pageSteps(
  target: ActionTarget,
  value: number,
  timeoutMs: number,
): Promise<ActionReport["keys"]> {
  const { app, path, node } = target;
  if (app.toolkit.name !== "Gecko" || (node.role !== "spin button" && node.role !== "slider"))
    return undefined;
  const current = Number(
    await app.property(path, IFACE.value, "CurrentValue", timeoutMs).catch(() => Number.NaN),
  );
  const steps = value - current;
  if (!Number.isInteger(current) || !Number.isInteger(value) || steps === 0 || Math.abs(steps) > PAGE_STEPS)
    return undefined;
  return { key: steps > 0 ? "Up" : "Down", count: Math.abs(steps) };
}

async function children(
  app: AtspiApp,
  path: string,
  timeoutMs: number,
): Promise<{ path: string; name: string }[]> {
  const [refs] = await app.call(path, IFACE.accessible, "GetChildren", timeoutMs);
  return Promise.all(
    (refs as [string, string][]).map(async ([, child]) => ({
      path: child,
      name: cleanName(
        String(await app.property(child, IFACE.accessible, "Name", timeoutMs).catch(() => "")),
        app,
      ),
    })),
  );
}

/** The index of an element's action of this name, if it has one. */
async function optionAction(
  app: AtspiApp,
  path: string,
  name: string,
  timeoutMs: number,
): Promise<number | undefined> {
  const { names } = await app.actionNames(path, timeoutMs).catch(() => ({ names: [] as string[] }));
  const index = names.indexOf(name);
  return index >= 0 ? index : undefined;
}

/** Rows of a selection listed in a receipt at most. */
const SELECTION_SHOWN = 20;

async function selectedRows(app: AtspiApp, path: string, timeoutMs: number): Promise<number[] | undefined> {
  try {
    const [rows] = await app.call(path, IFACE.table, "GetSelectedRows", timeoutMs);
    return (rows as number[]).map(Number).sort((a, b) => a - b);
  } catch {
    return undefined;
  }
}

async function selectChild(
  app: AtspiApp,
  containerPath: string,
  index: number,
  timeoutMs: number,
  what: string,
) {
  return bounded(`Selection.SelectChild(${index}) ${what}`, () =>
    app.act(containerPath, IFACE.selection, "SelectChild", timeoutMs, "i", [index]),
  );
}

/** Chooses a list's or combo box's option by its name, and reads back that it is chosen. */
async function selectOption(target: ActionTarget, wanted: string, timeoutMs: number): Promise<ActionReport> {
  const { app, path, node } = target;
  const interfaces = node.interfaces ?? [];
  const found = await findOption(app, path, cleanName(wanted), timeoutMs);
  // No options in the tree and no Selection: its list is built only as it opens (LibreOffice's
  // dialog combo boxes), which the caller may do.
  if (!found.option && found.seen.length === 0 && !interfaces.includes("Selection"))
    throw unsupported(target, "choosing an option it does not list until its list is open (Selection)");
  if (!found.option) {
    throw new ActionRejected(
      `no option named ${JSON.stringify(wanted)}; the options are ${JSON.stringify(found.seen.slice(0, 30))}`,
    );
  }
  const option = found.option;
  /**
   * Whether the option now reads selected, the combo shows it, or the combo's own Selection holds it
   * (GTK 3's combo box names itself by its model's id, "solarized-dark", and keeps its chosen item there).
   */
  const check = async (): Promise<boolean | undefined> => {
    await new Promise((resolve) => setTimeout(resolve, SELECT_SETTLE_MS));
    const [optionStates, shown, held] = await Promise.all([
      app.call(option.path, IFACE.accessible, "GetState", timeoutMs).then(
        ([bits]) => statesFromBitset(bits as number[]),
        () => undefined,
      ),
      app.property(path, IFACE.accessible, "Name", timeoutMs).then(
        (n) => cleanName(String(n), app),
        () => undefined,
      ),
      node.role === "combo box" && interfaces.includes("Selection")
        ? chosenItemPath(app, path, timeoutMs).catch(() => undefined)
        : undefined,
    ]);
    if (optionStates === undefined && shown === undefined && held === undefined) return undefined;
    return optionStates?.includes("selected") || shown === cleanName(wanted) || held === option.path;
  };
  // Firefox's drop-down: SelectChild changes it without telling the page (no change event; a total
  // beside it stays), and its options' "select" chooses nothing while it is closed, and may leave its
  // list open for the next Enter. The arrow keys a person presses on it do both: the caller presses
  // them (measured 2026-12-07).
  if (app.toolkit.name === "Gecko" && node.role === "combo box") {
    const keys = await keysToOption(app, option, timeoutMs);
    if (keys?.count === 0)
      return { route: "none: the option is already chosen", outcome: "completed", seen: true };
    if (keys)
      return { route: "none by the toolkit (it would not tell the page)", outcome: "completed", keys };
  }
  // Web engines give an option an action named "select", which chooses it as a click does: the
  // page gets its change event (Chromium; its SelectChild returned false and changed nothing).
  const byAction = await optionAction(app, option.path, "select", timeoutMs);
  if (byAction !== undefined) {
    const report = await bounded(`Action.DoAction("select") on the option ${JSON.stringify(wanted)}`, () =>
      app.act(option.path, IFACE.action, "DoAction", timeoutMs, "i", [byAction]),
    );
    const seen = await check();
    if (seen !== false) return seen === undefined ? report : { ...report, seen };
  }
  // A combo box that implements Selection selects its n-th item itself (Java, GTK3); otherwise the
  // option's own list does.
  const container = interfaces.includes("Selection") && node.role === "combo box" ? path : option.parent;
  const report = await selectChild(app, container, option.index, timeoutMs, `of ${JSON.stringify(wanted)}`);
  // Some toolkits return true and select nothing: the option itself, or the combo showing it, says.
  const seen = await check();
  return seen === undefined ? report : { ...report, seen };
}

/** The arrow presses from the option its list holds selected to `option`; undefined where none reads selected. */
async function keysToOption(
  app: AtspiApp,
  option: { parent: string; index: number },
  timeoutMs: number,
): Promise<ActionReport["keys"]> {
  const count = Number(await app.property(option.parent, IFACE.accessible, "ChildCount", timeoutMs));
  for (let i = 0; i < Math.min(count, OPTIONS_WALKED); i++) {
    const [ref] = await app.call(option.parent, IFACE.accessible, "GetChildAtIndex", timeoutMs, "i", [i]);
    const [bits] = await app.call((ref as [string, string])[1], IFACE.accessible, "GetState", timeoutMs);
    if (statesFromBitset(bits as number[]).includes("selected"))
      return { key: option.index >= i ? "Down" : "Up", count: Math.abs(option.index - i) };
  }
  return undefined;
}

/** Options of a page's drop-down read for the chosen one, at most. */
const OPTIONS_WALKED = 200;

async function select(
  target: ActionTarget,
  action: Extract<SemanticAction, { kind: "select" }>,
  timeoutMs: number,
): Promise<ActionReport> {
  const { app, path, node } = target;
  const interfaces = node.interfaces ?? [];
  if (action.row !== undefined) {
    if (!interfaces.includes("Table")) throw unsupported(target, "select by row (Table)");
    return selectRow(app, path, interfaces, action.row, action.column, action.mode ?? "replace", timeoutMs);
  }
  if (action.option !== undefined) return selectOption(target, action.option, timeoutMs);
  if (node.role === "radio button" || node.role === "radio menu item") return chooseRadio(target, timeoutMs);
  // No option: select this element within its parent (a list item, a page tab), which must be a
  // selection container.
  const selectable = saysSelectable(node.states);
  const row = await rowOfCell(target, timeoutMs);
  if (row !== undefined) return selectCell(target, row, timeoutMs);
  const parentInterfaces = target.parentPath
    ? ((
        await app.call(target.parentPath, IFACE.accessible, "GetInterfaces", timeoutMs).catch(() => [[]])
      )[0] as string[])
    : [];
  const has = (name: string) => parentInterfaces.some((i) => i.endsWith(`.${name}`));
  if (target.parentPath && selectable && has("Selection"))
    return selectChild(
      app,
      target.parentPath,
      node.indexInParent,
      timeoutMs,
      "of this element in its parent",
    );
  // Qt's list views hold their items in a Table with no Selection (Kate's file browser): the
  // item's row, through the Table, read back.
  const itemRow =
    target.parentPath && selectable && has("Table") ? await rowAt(target, timeoutMs) : undefined;
  if (itemRow !== undefined)
    return selectRow(app, target.parentPath!, ["Table"], itemRow, undefined, "replace", timeoutMs);
  throw unsupported(
    target,
    "select without option or row (it is not a selectable item of a list or tab list)",
  );
}

/**
 * A cell of a table: itself, through the table's Selection (a spreadsheet's cell, which its row's
 * first cell is not), read back; where the table will not (GTK 3's SelectChild on a cell returns
 * false and selects nothing: a print dialog's printer), its row, as `select {row}` does.
 */
async function selectCell(target: ActionTarget, row: number, timeoutMs: number): Promise<ActionReport> {
  const { app, node } = target;
  const table = target.parentPath!;
  const index = node.indexInParent;
  const own = await selectChild(app, table, index, timeoutMs, "of this cell in its table").catch(
    () => undefined,
  );
  if (own?.returned !== true) return selectRow(app, table, ["Table"], row, undefined, "replace", timeoutMs);
  await new Promise((resolve) => setTimeout(resolve, SELECT_SETTLE_MS));
  const [selected] = await app
    .call(table, IFACE.selection, "IsChildSelected", timeoutMs, "i", [index])
    .catch(() => [undefined]);
  return typeof selected === "boolean" ? { ...own, seen: selected } : own;
}

/** The row of a table cell whose parent is the table itself; undefined for anything else. */
async function rowOfCell(target: ActionTarget, timeoutMs: number): Promise<number | undefined> {
  return target.node.role === "table cell" ? rowAt(target, timeoutMs) : undefined;
}

/** The row of its parent's Table an element is at; undefined where the parent says none. */
async function rowAt(target: ActionTarget, timeoutMs: number): Promise<number | undefined> {
  if (!target.parentPath) return undefined;
  try {
    const [row] = await target.app.call(target.parentPath, IFACE.table, "GetRowAtIndex", timeoutMs, "i", [
      target.node.indexInParent,
    ]);
    return Number(row) >= 0 ? Number(row) : undefined;
  } catch {
    return undefined;
  }
}

/** Unselects a table's rows; whether the table took every one. */
async function unselectRows(
  app: AtspiApp,
  path: string,
  rows: number[],
  timeoutMs: number,
): Promise<boolean> {
  const removed = await Promise.all(
    rows.map((r) =>
      app.act(path, IFACE.table, "RemoveRowSelection", timeoutMs, "i", [r]).catch(() => undefined),
    ),
  );
  return removed.every((r) => r?.[0] === true);
}

/**
 * Qt will not unselect a list's only selected row, and its AddRowSelection then keeps it beside the
 * new one (Kate's settings pages): the rows that stayed are unselected again once the new one is
 * in, and where that took the new row with them (Qt unselects a contiguous run to its end), it is
 * added once more. The selection as it then reads.
 */
async function letGo(
  app: AtspiApp,
  path: string,
  row: number,
  stayed: number[],
  timeoutMs: number,
): Promise<{ route: string; rows: number[] | undefined }> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, SELECT_SETTLE_MS));
  const steps = [`Table.RemoveRowSelection(${stayed.join(", ")}) again`];
  await unselectRows(app, path, stayed, timeoutMs);
  await settle();
  let rows = await selectedRows(app, path, timeoutMs);
  if (rows && !rows.includes(row)) {
    await app.act(path, IFACE.table, "AddRowSelection", timeoutMs, "i", [row]).catch(() => undefined);
    steps.push(`Table.AddRowSelection(${row}) again`);
    await settle();
    rows = await selectedRows(app, path, timeoutMs);
  }
  return { route: steps.join(", then "), rows };
}

/** Selects a table's row (or, with a column, one cell) through its Table interface, read back. */
async function selectRow(
  app: AtspiApp,
  path: string,
  interfaces: string[],
  row: number,
  column: number | undefined,
  mode: "replace" | "add",
  timeoutMs: number,
): Promise<ActionReport> {
  const [rows, columnCount] = (
    await Promise.all([
      app.property(path, IFACE.table, "NRows", timeoutMs),
      app.property(path, IFACE.table, "NColumns", timeoutMs),
    ])
  ).map(Number) as [number, number];
  if (row >= rows)
    throw new OutOfRange(`row ${row} is past the table's ${rows} rows (0–${rows - 1}); nothing was selected`);
  if (column !== undefined && column >= columnCount)
    throw new OutOfRange(`column ${column} is past the table's ${columnCount} columns; nothing was selected`);
  if (column !== undefined) {
    const [index] = await app.call(path, IFACE.table, "GetIndexAt", timeoutMs, "ii", [row, column]);
    return selectChild(app, path, Number(index), timeoutMs, `of cell ${row},${column}`);
  }
  const before = await selectedRows(app, path, timeoutMs);
  const steps: string[] = [];
  if (mode === "replace" && before && before.some((r) => r !== row)) {
    // A file list keeps its selection when another row is added: Enter then opened both files.
    const others = before.filter((r) => r !== row);
    const removed = await unselectRows(app, path, others, timeoutMs);
    if (!removed && interfaces.includes("Selection")) {
      await app.act(path, IFACE.selection, "ClearSelection", timeoutMs).catch(() => undefined);
      steps.push("Selection.ClearSelection");
    } else steps.push(`Table.RemoveRowSelection(${others.join(", ")})`);
  }
  let report = await bounded(`Table.AddRowSelection(${row})`, () =>
    app.act(path, IFACE.table, "AddRowSelection", timeoutMs, "i", [row]),
  );
  if (report.returned === false) {
    // Java refuses AddRowSelection; selecting the row's first cell through Selection selects the row.
    const [index] = await app.call(path, IFACE.table, "GetIndexAt", timeoutMs, "ii", [row, 0]);
    report = {
      ...(await selectChild(app, path, Number(index), timeoutMs, `of row ${row}'s first cell`)),
      detail: "Table.AddRowSelection returned false; selected through the row's first cell",
    };
  }
  if (steps.length > 0) report = { ...report, route: `${steps.join(", then ")}, then ${report.route}` };
  // The selection as the table now says it is: what the next Enter or Delete acts on.
  await new Promise((resolve) => setTimeout(resolve, SELECT_SETTLE_MS));
  let after = await selectedRows(app, path, timeoutMs);
  const stayed = mode === "replace" && after?.includes(row) ? after.filter((r) => r !== row) : [];
  if (stayed.length > 0) {
    const released = await letGo(app, path, row, stayed, timeoutMs);
    report = { ...report, route: `${report.route}, then ${released.route}` };
    after = released.rows;
  }
  if (!after) return report;
  const selection = { rows: after.slice(0, SELECTION_SHOWN), total: after.length };
  // No row reads selected at all: the Java wrapper reports none even where the table took it (its
  // own listeners saw the row chosen), so nothing can be told from here either way.
  if (after.length === 0)
    return {
      ...report,
      selection,
      detail: `${report.detail ? `${report.detail}; ` : ""}the table reports no selected row at all, which some toolkits (Java's) always do: whether row ${row} is selected cannot be told from here; read what the app shows of it`,
    };
  const seen = after.includes(row) && (mode === "add" || after.length === 1);
  return { ...report, seen, selection };
}

/**
 * Selecting a radio button chooses it, as UIA's SelectionItem does and the seeds' clients expect:
 * its own action checks it, read back; one already checked is left as it is.
 */
async function chooseRadio(target: ActionTarget, timeoutMs: number): Promise<ActionReport> {
  const checked = async () =>
    statesFromBitset(
      (await target.app.call(target.path, IFACE.accessible, "GetState", timeoutMs))[0] as number[],
    ).includes("checked");
  if (await checked().catch(() => false))
    return { route: "none: the radio button is already chosen", outcome: "completed", seen: true };
  const report = await doAction(target, TOGGLE_NAMES, "select", timeoutMs);
  await new Promise((resolve) => setTimeout(resolve, SELECT_SETTLE_MS));
  const seen = await checked().catch(() => undefined);
  return seen === undefined ? report : { ...report, seen };
}

const SCROLL_STEP: Record<ScrollAmount, number> = {
  no_amount: 0,
  small_increment: 1,
  small_decrement: -1,
  large_increment: 10,
  large_decrement: -10,
};

/**
 * The scroll bars a container scrolls by: its own, else those of the two elements around it. A
 * container scrolls through its scroll bars' Value: small steps are the bar's minimum increment,
 * large ones ten of those. A Swing table's bars belong to the scroll pane around it (two levels up,
 * past the viewport).
 */
async function scrollBarsAround(
  target: ActionTarget,
  timeoutMs: number,
): Promise<{ path: string; vertical: boolean }[]> {
  const { app, path } = target;
  const barsOf = async (container: string) => {
    const [refs] = await app.call(container, IFACE.accessible, "GetChildren", timeoutMs);
    const found: { path: string; vertical: boolean }[] = [];
    for (const [, child] of refs as [string, string][]) {
      const [[role], [states]] = await Promise.all([
        app.call(child, IFACE.accessible, "GetRole", timeoutMs),
        app.call(child, IFACE.accessible, "GetState", timeoutMs),
      ]);
      if (roleName(Number(role)) !== "scroll bar") continue;
      found.push({ path: child, vertical: statesFromBitset(states as number[]).includes("vertical") });
    }
    return found;
  };
  let bars = await barsOf(path);
  for (let up = target.parentPath, level = 0; bars.length === 0 && up && level < 2; level++) {
    bars = await barsOf(up);
    const parent = await app.property(up, IFACE.accessible, "Parent", timeoutMs).catch(() => undefined);
    up = Array.isArray(parent) ? String(parent[1]) : undefined;
  }
  if (bars.length === 0)
    throw unsupported(target, "scroll (neither it nor the two elements around it have scroll bars)");
  return bars;
}

async function scroll(
  target: ActionTarget,
  action: Extract<SemanticAction, { kind: "scroll" }>,
  timeoutMs: number,
): Promise<ActionReport> {
  const { app } = target;
  // Finding the bars only reads: an app that does not answer then has had nothing done to it.
  const bars = await scrollBarsAround(target, timeoutMs).catch((error) => {
    if (!(error instanceof DBusTimeoutError)) throw error;
    throw new AppNotResponding(app.described, timeoutMs);
  });
  const routes: string[] = [];
  const moved: (boolean | undefined)[] = [];
  const ends: string[] = [];
  const asked: NonNullable<ActionReport["scrollBars"]> = [];
  for (const [axis, amount] of [
    ["horizontal", action.horizontal],
    ["vertical", action.vertical],
  ] as const) {
    const step = SCROLL_STEP[amount];
    if (step === 0) continue;
    const bar = bars.find((b) => b.vertical === (axis === "vertical"));
    if (!bar) throw new ActionRejected(`it has no ${axis} scroll bar`);
    const read = (p: string) => app.property(bar.path, IFACE.value, p, timeoutMs).then(Number);
    const [current, minimum, maximum, increment] = await Promise.all([
      read("CurrentValue"),
      read("MinimumValue"),
      read("MaximumValue"),
      read("MinimumIncrement").catch(() => 0),
    ]);
    // An increment too small to move anything is no increment (the Java wrapper answers 5e-323).
    const unit = increment > (maximum - minimum) / 10_000 ? increment : (maximum - minimum) / 100;
    const next = Math.max(minimum, Math.min(maximum, current + step * unit));
    if (next === current) {
      // At its end already (or nothing to scroll, 0 of 0–0): nothing moves, and the wheel would not either.
      ends.push(
        `the ${axis} scroll bar is already at its ${step > 0 ? "end" : "start"} (${current} of ${minimum}–${maximum})`,
      );
      moved.push(false);
      routes.push(`${axis} scroll bar Value ${current}: not set`);
      continue;
    }
    await app.act(bar.path, IFACE.properties, "Set", timeoutMs, "ssv", [
      IFACE.value,
      "CurrentValue",
      ["d", next],
    ]);
    asked.push({ axis, handle: handleOf(app.busName, bar.path), before: current, wanted: next });
    // The Java wrapper accepts the Set and leaves the bar where it was: the bar is read again.
    const after = await read("CurrentValue").catch(() => undefined);
    moved.push(after === undefined ? undefined : Math.abs(after - next) <= unit / 2);
    routes.push(
      `${axis} scroll bar Value ${current} → ${next}${after !== undefined && after !== next ? ` (reads ${after})` : ""}`,
    );
  }
  const seen = moved.length === 0 || moved.some((m) => m === undefined) ? undefined : moved.every(Boolean);
  return {
    route: routes.join("; ") || "nothing to scroll (no_amount on both axes)",
    outcome: "completed",
    ...(seen === undefined ? {} : { seen }),
    // Only bars that should have moved go to the wheel: one at its end stays there under it too.
    ...(asked.length > 0 && ends.length === 0 ? { scrollBars: asked } : {}),
    ...(ends.length > 0
      ? { detail: `nothing scrolled: ${ends.join("; ")}` }
      : seen === false
        ? {
            detail:
              "the scroll bar did not move: the toolkit accepted the value and ignored it. wheel over the element is the route that works",
          }
        : {}),
  };
}

export async function performAction(
  target: ActionTarget,
  action: SemanticAction,
  timeoutMs: number,
): Promise<ActionReport> {
  const { app, path, node } = target;
  const states = node.states ?? [];
  switch (action.kind) {
    case "invoke":
      return doAction(target, INVOKE_NAMES, "invoke", timeoutMs);
    case "toggle":
      // A push button's "click" would press it: toggle is only for what has two states.
      if (!togglable(target))
        throw unsupported(
          target,
          "toggle (it is not a check box, toggle button or radio button; use invoke to press it)",
        );
      return doAction(target, TOGGLE_NAMES, "toggle", timeoutMs);
    case "expand":
      if (states.includes("expanded")) return { route: "none: already expanded", outcome: "completed" };
      if (!states.includes("expandable") && node.states !== undefined && node.role !== "menu")
        throw unsupported(target, "expand (it is not expandable)");
      return doAction(target, node.role === "menu" ? EXPAND_MENU_NAMES : EXPAND_NAMES, "expand", timeoutMs);
    case "collapse":
      if (!states.includes("expanded") && node.states !== undefined)
        return { route: "none: already collapsed", outcome: "completed" };
      return doAction(target, COLLAPSE_NAMES, "collapse", timeoutMs);
    case "set_value":
      return setValue(target, action.text, timeoutMs);
    case "set_range":
      return setRange(target, action.value, timeoutMs);
    case "focus":
      if (!(node.interfaces ?? []).includes("Component")) throw unsupported(target, "focus (Component)");
      return bounded("Component.GrabFocus", () => app.act(path, IFACE.component, "GrabFocus", timeoutMs));
    case "scroll_into_view":
      if (!(node.interfaces ?? []).includes("Component"))
        throw unsupported(target, "scroll_into_view (Component)");
      return bounded("Component.ScrollTo", () =>
        app.act(path, IFACE.component, "ScrollTo", timeoutMs, "u", [SCROLL_ANYWHERE]),
      );
    case "select":
      return select(target, action, timeoutMs);
    case "scroll":
      return scroll(target, action, timeoutMs);
  }
}

/**
 * Finds an option by its text below an element, breadth-first and bounded: options sit at different
 * depths (GTK3: combo → menu → item; Swing: combo → popup → scroll pane → viewport → list → item).
 */
/** Rows a list chooses, whose label may be a child of theirs (GTK 4's list rows). */
const ROW_ROLES = new Set(["list item", "table row", "tree item", "table cell"]);

const roleOf = (app: AtspiApp, path: string, timeoutMs: number) =>
  app.call(path, IFACE.accessible, "GetRole", timeoutMs).then(
    ([role]) => roleName(Number(role)) as string,
    () => "",
  );

async function findOption(
  app: AtspiApp,
  root: string,
  option: string,
  timeoutMs: number,
): Promise<{ option?: { parent: string; index: number; path: string }; seen: string[] }> {
  const seen: string[] = [];
  // Each unnamed element's place in its list: a GTK 4 list's row is unnamed, and the label inside it
  // names it; the row is the option, chosen in the list, not the label in the row.
  const unnamed = new Map<string, { parent: string; index: number; path: string }>();
  let level = [root];
  for (let depth = 0; depth < 6 && level.length > 0 && seen.length < 500; depth++) {
    const next: string[] = [];
    for (const parent of level) {
      const kids = await children(app, parent, timeoutMs).catch(() => []);
      const index = kids.findIndex((kid) => kid.name === option);
      if (index >= 0) {
        const row = unnamed.get(parent);
        const chosen = row && ROW_ROLES.has(await roleOf(app, row.path, timeoutMs)) ? row : undefined;
        return { option: chosen ?? { parent, index, path: kids[index]!.path }, seen };
      }
      for (const [at, kid] of kids.entries()) {
        if (kid.name) seen.push(kid.name);
        else unnamed.set(kid.path, { parent, index: at, path: kid.path });
        next.push(kid.path);
      }
    }
    level = next;
  }
  return { seen };
}
