// The names a toolkit reports, as deskhand passes them on: the app's words, not the toolkit's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cleanName } from "../../src/platform/atspi/reader.js";

const gtk48 = { doublesNames: true, namesByType: true };
const gtk3 = { doublesNames: false, namesByType: false };

describe("cleanName", () => {
  it("trims the padding toolkits add", () => {
    assert.equal(cleanName(" File  ", gtk3), "File");
  });

  it("says GTK 4.8's doubled names once, and only when both halves match", () => {
    assert.equal(cleanName("Save Save", gtk48), "Save");
    assert.equal(cleanName("Save As Save As", gtk48), "Save As");
    assert.equal(cleanName("Save Now", gtk48), "Save Now");
    assert.equal(cleanName("Save Save", gtk3), "Save Save");
  });

  it("reads GTK 4's widget type names as no name at all", () => {
    for (const type of ["GtkToggleButton", "GtkImage", "GtkEntry", "GtkMenuButton"])
      assert.equal(cleanName(type, gtk48), "", type);
    // Words an app chose stay, even those that look like a type.
    for (const name of ["Gtk", "GtkDemo settings", "GTKButton", "togglebutton"])
      assert.equal(cleanName(name, gtk48), name, name);
    // Outside GTK 4 the name is the app's.
    assert.equal(cleanName("GtkImage", gtk3), "GtkImage");
  });
});
