import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { MessageTemplates, type NativeMessage } from "../../src/platform/dbus.js";
import { cutMark, cutString, STRING_CEILING } from "../../src/platform/strings.js";

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

/** A string as deskhand reads it from a D-Bus reply that carries it. */
const { unmarshall } = require("@homebridge/dbus-native/lib/message") as {
  unmarshall(buffer: Buffer): { body: unknown[] };
};
const reply = (text: string) =>
  unmarshall(
    marshall({ type: 2, serial: 3, path: "/", interface: "x.y", member: "Z", signature: "s", body: [text] }),
  ).body[0] as string;

describe("strings past the ceiling are decoded only as far as deskhand carries them", () => {
  it("keeps a string at the ceiling whole, and marks a longer one with its whole length", () => {
    const whole = "é".repeat(STRING_CEILING);
    assert.equal(reply(whole), whole);
    const huge = `${"Huge ".repeat(1_000_000)}😀`;
    const read = reply(huge);
    assert.ok(read.length < huge.length / 10, `${read.length} characters decoded`);
    assert.ok(huge.startsWith(read.slice(0, STRING_CEILING)));
    assert.ok(read.endsWith(cutMark(huge.length)), read.slice(-40));
    assert.equal(
      cutString(read),
      `${huge.slice(0, STRING_CEILING - cutMark(huge.length).length)}${cutMark(huge.length)}`,
    );
  });

  it("cuts at a character's edge, never inside its bytes", () => {
    const wide = "€".repeat(STRING_CEILING + 10); // three bytes each
    const read = reply(wide);
    assert.ok(!read.includes("\uFFFD"), "no broken character");
    assert.ok(read.endsWith(cutMark(wide.length)));
  });
});

describe("a cut string's whole length, counted in UTF-16 units from its bytes", () => {
  it("counts every mix of ASCII, two-, three- and four-byte characters, at any offset", () => {
    for (const piece of ["a", "é", "€", "😀", "ab😀é€xyz"]) {
      for (const extra of [0, 1, 2, 3]) {
        const text = "x".repeat(extra) + piece.repeat(Math.ceil((STRING_CEILING * 3 + 7) / piece.length));
        const read = reply(text);
        assert.ok(
          read.endsWith(cutMark(text.length)),
          `${JSON.stringify(piece)} +${extra}: ${read.slice(-40)}`,
        );
      }
    }
  });
});
