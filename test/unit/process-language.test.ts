// The language an app shows its labels in, read from its process's environment as gettext reads it
// (src/platform/processes.ts processLanguage): the gate reads a label in that language.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { processLanguage } from "../../src/platform/processes.js";

/** The language a process started with this environment reports. */
async function languageWith(env: Record<string, string>): Promise<string | undefined> {
  const child = spawn("sleep", ["5"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
  try {
    await new Promise((resolve) => child.once("spawn", resolve));
    return processLanguage(child.pid!);
  } finally {
    child.kill();
  }
}

describe("an app's language", () => {
  it("is LANGUAGE's first, else LC_ALL, LC_MESSAGES or LANG, without the encoding", async () => {
    assert.equal(await languageWith({ LANG: "pt_BR.UTF-8" }), "pt_BR");
    assert.equal(await languageWith({ LANG: "fr_FR.UTF-8", LC_MESSAGES: "de_DE.UTF-8" }), "de_DE");
    assert.equal(await languageWith({ LANG: "fr_FR.UTF-8", LANGUAGE: "xh:en" }), "xh");
    assert.equal(await languageWith({ LANG: "sr_RS@latin" }), "sr_RS@latin");
  });

  it("is English in the C locale, whatever LANGUAGE says (gettext ignores it there)", async () => {
    assert.equal(await languageWith({ LC_ALL: "C", LANGUAGE: "de" }), "en");
    assert.equal(await languageWith({ LANG: "POSIX", LANGUAGE: "de" }), "en");
    assert.equal(await languageWith({ LANG: "C.UTF-8" }), "en");
  });

  it("is LANGUAGE's first in C.UTF-8, which gettext honours there (a container's usual locale)", async () => {
    assert.equal(await languageWith({ LC_ALL: "C.UTF-8", LANGUAGE: "de" }), "de");
    assert.equal(await languageWith({ LANG: "C.utf8", LANGUAGE: "sv:en" }), "sv");
  });

  it("is unknown where nothing names one, a value is no locale name, or the process is gone", async () => {
    assert.equal(await languageWith({}), undefined);
    assert.equal(await languageWith({ LANG: 'de" (L1): nothing commits' }), undefined);
    assert.equal(processLanguage(2 ** 22 + 1), undefined);
  });
});
