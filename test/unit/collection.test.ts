import assert from "node:assert/strict";
import { it } from "node:test";
import type { AtspiApp } from "../../src/platform/atspi/app.js";
import { collectionWorthwhile } from "../../src/platform/atspi/collection.js";

const app = (name: string, toolkit: string, version: string) =>
  ({ name, toolkit: { name: toolkit, version } }) as unknown as AtspiApp;

it("Collection is asked only where it is safe and faster", () => {
  assert.equal(collectionWorthwhile(app("gtk3-widget-factory", "gtk", "3.24.38")), true);
  assert.equal(collectionWorthwhile(app("firefox", "Gecko", "153.0")), true);
  assert.equal(
    collectionWorthwhile(app("soffice", "gtk", "3.24.38")),
    false,
    "LibreOffice walks its whole sheet",
  );
  assert.equal(
    collectionWorthwhile(app("gtk4-widget-factory", "GTK", "4.8.3")),
    false,
    "GTK4 does not implement it",
  );
  assert.equal(
    collectionWorthwhile(app("Deskhand Fixture", "J2SE-access-bridge", "1.0")),
    false,
    "slower than the tree on Java",
  );
});
