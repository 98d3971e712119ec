import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { MessageTemplates, type NativeMessage } from "../../src/platform/atspi/dbus.js";

const require = createRequire(import.meta.url);
const { marshall } = require("@homebridge/dbus-native/lib/message") as {
  marshall(message: NativeMessage): Buffer;
};

const extents = (serial: number, path = "/org/a11y/atspi/accessible/12"): NativeMessage => ({
  type: 1,
  serial,
  destination: ":1.7",
  path,
  interface: "org.a11y.atspi.Component",
  member: "GetExtents",
  signature: "u",
  body: [0],
});

describe("encoded read calls kept for reuse", () => {
  it("sends a repeated call byte for byte as the library encodes it, with its own serial", () => {
    const templates = new MessageTemplates();
    assert.deepEqual(templates.encode(extents(5)), marshall(extents(5)));
    for (const serial of [6, 255, 256, 70_000, 2 ** 31 + 3]) {
      assert.deepEqual(templates.encode(extents(serial)), marshall(extents(serial)), `serial ${serial}`);
    }
    assert.equal(templates.size, 1, "one template serves every repeat");
    assert.deepEqual(templates.encode(extents(9, "/other")), marshall(extents(9, "/other")));
    const get = (serial: number, property: string): NativeMessage => ({
      type: 1,
      serial,
      path: "/p",
      interface: "org.freedesktop.DBus.Properties",
      member: "Get",
      signature: "ss",
      body: ["org.a11y.atspi.Text", property],
    });
    templates.encode(get(10, "CharacterCount"));
    assert.deepEqual(templates.encode(get(11, "CaretOffset")), marshall(get(11, "CaretOffset")));
    assert.equal(templates.size, 4, "calls that differ in any argument are kept apart");
  });

  it("never keeps a call that writes, or one carrying long text", () => {
    const templates = new MessageTemplates();
    const write: NativeMessage = {
      type: 1,
      serial: 3,
      path: "/p",
      interface: "org.a11y.atspi.EditableText",
      member: "SetTextContents",
      signature: "s",
      body: ["hunter2"],
    };
    assert.deepEqual(templates.encode(write), marshall(write));
    const long: NativeMessage = { ...write, member: "GetSomething", body: ["x".repeat(65)] };
    assert.deepEqual(templates.encode(long), marshall(long));
    assert.equal(templates.size, 0);
  });
});
