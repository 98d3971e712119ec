// One contract for every backend, run against the fake (test/unit) and against real apps on AT-SPI
// (test/desktop). A backend that cannot do something skips that case by name, with its reason.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AccessibilityBackend, RawNode, StructureOptions } from "../../src/platform/types.js";

export interface ContractFixture {
  backend: AccessibilityBackend;
  /** Title of a window whose tree has a push button named `buttonName` and a password field. */
  title: string;
  buttonName: string;
  /** An editable text field's name, for the action case. */
  textFieldName: string;
  teardown?: () => Promise<void>;
}

export type ContractCase =
  | "lists windows"
  | "reads a window"
  | "cuts at maxDepth"
  | "cuts at the node ceiling"
  | "reads a subtree"
  | "enriches bounds and actions"
  | "never reads a password"
  | "sets a text field and re-reads it"
  | "refuses an action the element lacks"
  | "unknown window"
  | "unknown handle";

const FULL: StructureOptions = {
  maxDepth: 64,
  tableRows: 5,
  walkTables: false,
  nodeCeiling: 20_000,
  timeoutMs: 10_000,
};

function* walk(node: RawNode): Generator<RawNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

export function backendContract(
  name: string,
  setup: () => Promise<ContractFixture>,
  skips: Partial<Record<ContractCase, string>> = {},
): void {
  describe(`backend contract: ${name}`, () => {
    let fixture: ContractFixture;
    let windowId: number;
    before(async () => {
      fixture = await setup();
      const windows = await fixture.backend.listWindows();
      const window = windows.find((w) => w.title === fixture.title);
      assert.ok(window, `the fixture window ${fixture.title} is listed`);
      windowId = window.id;
    });
    after(async () => {
      await fixture?.teardown?.();
    });

    const test = (title: ContractCase, body: () => Promise<void>) => {
      const reason = skips[title];
      if (reason) it(title, { skip: reason }, () => {});
      else it(title, body);
    };

    test("lists windows", async () => {
      const windows = await fixture.backend.listWindows();
      const window = windows.find((w) => w.id === windowId)!;
      assert.equal(typeof window.id, "number");
      assert.ok(window.pid && window.pid > 0, "the window has a pid");
      assert.ok(window.rect && window.rect.width > 0 && window.rect.height > 0, "the window has a size");
      assert.equal(window.accessible, true);
      assert.ok(windows.filter((w) => w.focused).length <= 1, "at most one window has focus");
    });

    test("reads a window", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      assert.match(read.root.role, /^(frame|window|dialog)$/);
      assert.equal(read.timedOut, false);
      for (const node of walk(read.root)) {
        if (!node.childrenCut)
          assert.equal(
            node.children.length,
            node.childCount,
            `${node.role} ${node.name} has all its children`,
          );
      }
      const button = [...walk(read.root)].find(
        (n) => n.role === "push button" && n.name === fixture.buttonName,
      );
      assert.ok(button, `the button ${fixture.buttonName} is in the tree`);
    });

    test("cuts at maxDepth", async () => {
      const read = await fixture.backend.readWindow(windowId, { ...FULL, maxDepth: 1 });
      assert.ok(read.root.children.length > 0);
      for (const child of read.root.children) {
        assert.equal(child.children.length, 0);
        if ((child.childCount ?? 0) > 0) assert.deepEqual(child.childrenCut, { reason: "maxDepth" });
      }
    });

    test("cuts at the node ceiling", async () => {
      const read = await fixture.backend.readWindow(windowId, { ...FULL, nodeCeiling: 5 });
      assert.equal(read.ceilingHit, true);
      assert.ok([...walk(read.root)].length <= 5);
      assert.ok([...walk(read.root)].some((n) => n.childrenCut?.reason === "nodeCeiling"));
    });

    test("reads a subtree", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      const button = [...walk(read.root)].find(
        (n) => n.role === "push button" && n.name === fixture.buttonName,
      )!;
      const subtree = await fixture.backend.readSubtree(button.handle, FULL);
      assert.equal(subtree.root.role, button.role);
      assert.equal(subtree.root.name, button.name);
      assert.equal(subtree.root.indexInParent, button.indexInParent);
    });

    test("enriches bounds and actions", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      const button = [...walk(read.root)].find(
        (n) => n.role === "push button" && n.name === fixture.buttonName,
      )!;
      await fixture.backend.enrich([button], {
        maxText: 100,
        timeoutMs: 5000,
        windowId,
        actions: true,
        accessibleIds: true,
      });
      assert.equal(button.enriched, true);
      assert.ok(
        button.bounds && button.bounds.width > 0 && button.bounds.height > 0,
        "the button has bounds",
      );
      assert.ok((button.actions ?? []).length > 0, "the button has an action");
      assert.deepEqual(button.unread, []);
    });

    test("never reads a password", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      const password = [...walk(read.root)].find((n) => n.role === "password text");
      assert.ok(password, "the fixture has a password field");
      await fixture.backend.enrich([password], {
        maxText: 100,
        timeoutMs: 5000,
        windowId,
        actions: true,
        accessibleIds: true,
      });
      assert.equal(password.text, undefined);
      assert.equal(password.value, undefined);
    });

    test("sets a text field and re-reads it", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      const field = [...walk(read.root)].find((n) => n.role === "text" && n.name === fixture.textFieldName)!;
      assert.ok(field, `the text field ${fixture.textFieldName} is in the tree`);
      const report = await fixture.backend.perform(
        field.handle,
        { kind: "set_value", text: "contract ✓" },
        { timeoutMs: 3000 },
      );
      assert.equal(report.outcome, "completed");
      const after = await fixture.backend.describe(field.handle, { maxText: 100, windowId });
      assert.equal(after.text, "contract ✓");
    });

    test("refuses an action the element lacks", async () => {
      const read = await fixture.backend.readWindow(windowId, FULL);
      const button = [...walk(read.root)].find(
        (n) => n.role === "push button" && n.name === fixture.buttonName,
      )!;
      await assert.rejects(
        fixture.backend.perform(button.handle, { kind: "set_value", text: "x" }, { timeoutMs: 3000 }),
        { name: "UnsupportedAction" },
      );
    });

    test("unknown window", async () => {
      await assert.rejects(fixture.backend.readWindow(0x7ffffff0, FULL), { name: "WindowNotFound" });
    });

    test("unknown handle", async () => {
      await assert.rejects(fixture.backend.readSubtree(`:9.999/org/a11y/atspi/accessible/nothing`, FULL));
    });
  });
}
