// No secret in any journal line: credentials found by their look, format characters looked through,
// a password's pieces masked across lines, and a password one session typed kept out of another's.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { AuditJournal, scrub, withoutSecrets } from "../../src/safety/audit.js";
import { credentialRanges, holdsCredential } from "../../src/safety/secrets.js";

const entry = (intent: string, name = "Field") =>
  ({
    time: "t",
    tool: "type_text",
    level: "L2",
    decision: "done",
    intent,
    reversible: true,
    target: { role: "text", name },
  }) as never;
const base = { time: "t", tool: "type_text", level: "L2" as const, reversible: true, target: null };

describe("credentials are found by their look", () => {
  const keys = [
    "sk-proj-Qx7vB2mN9pL4kR8sT1wZ3yH6",
    "sk-ant-api03-aZ9kLm2Qp7Xr4Tn8Vb1c",
    "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuV",
    "github_pat_11ABCDEFG0abcdefghij1234567890",
    "xoxb-1234567890-abcdefghijk",
    "AKIAIOSFODNN7EXAMPLE",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "Zq8Lm3Xv7Rt2Np9Wk4Hs6Jd1Fb5Gc0Ye", // 32 random base-62 characters, no prefix
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", // a SHA-256
  ];
  for (const key of keys)
    it(`finds ${key.slice(0, 12)}… inside a sentence`, () => {
      const text = `use the key ${key} now`;
      const [range, ...more] = credentialRanges(text);
      assert.deepEqual(range, [12, 12 + key.length], text);
      assert.equal(more.length, 0);
    });

  it("leaves words, paths, identifiers, dates and uuids alone", () => {
    for (const text of [
      "Type the password into the Password field",
      "AbstractSingletonProxyFactoryBean2",
      "/tmp/deskhand-record-focus-Xa12Bc/audit.jsonl",
      "2026-12-02T14:09:54.123Z",
      "550e8400-e29b-41d4-a716-446655440000",
      "deadbeefdeadbeefdeadbeefdeadbeefdead",
      "gtk3-widget-factory gtk4-widget-factory",
      "a skein of sk-wool", // a prefix without a key after it
    ])
      assert.equal(holdsCredential(text), false, text);
  });

  it("a zero-width character inside a key does not hide it", () => {
    const text = "key: ghp_1a2B3c4D5e\u200b6F7g8H9i0JkLmNoPqRsTuV.";
    assert.equal(withoutSecrets(text, []), "key: [typed text].");
  });

  it("a journal line masks a key in every free-text field, typed or not", () => {
    const line = scrub(entry("Paste sk-proj-Qx7vB2mN9pL4kR8sT1wZ3yH6 here", "AKIAIOSFODNN7EXAMPLE"), []);
    const text = JSON.stringify(line);
    assert.doesNotMatch(text, /Qx7vB2|AKIAIOSF/, text);
    assert.match(text, /Paste \[typed text\] here/);
  });
});

describe("typed values are matched through format characters", () => {
  it("a zero-width space, joiner, soft hyphen or direction mark inside a quoted value", () => {
    for (const mark of ["\u200b", "\u200d", "\u00ad", "\u200e", "\u2060", "\ufeff"]) {
      const line = scrub(entry(`Check that "hun${mark}ter2" took`), [{ text: "hunter2" }]);
      assert.equal(
        (line as { intent: string }).intent,
        'Check that "[typed text]" took',
        JSON.stringify(mark),
      );
    }
  });

  it("a value typed with a format character inside is found without it", () => {
    const line = scrub(entry("Check that hunter2 took"), [{ text: "hun\u200bter2" }]);
    assert.equal((line as { intent: string }).intent, "Check that [typed text] took");
  });
});

describe("a password typed in pieces leaves no readable run on any line", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-secrets-"));
  const lines = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { intent: string });

  it("ul, ti, 7x typed into a password field: neither a piece nor a run of them is readable", () => {
    const path = join(dir, "pieces.jsonl");
    const journal = new AuditJournal(path);
    const session = "pieces";
    const typed = (text: string) => ({ place: "window 7", text, password: true });
    const intents = [
      "Type ul",
      "Then ti after ul",
      "Last 7x, so ulti and lti are done",
      "Check ulti7x, ti7 and i7x",
    ];
    const parts = ["ul", "ti", "7x", undefined];
    intents.forEach((intent, i) => {
      const part = parts[i];
      const attempt = journal.attempt(
        { ...base, intent, session },
        part ? [{ text: part, password: true }] : [],
        part ? typed(part) : undefined,
      );
      // What deskhand or the app writes (a reason, a name) may quote the run typed so far once it
      // is 4 characters or more; the agent's intent may quote any piece.
      const soFar = parts.slice(0, i + 1).join("");
      const note = soFar.length >= 4 ? `the field holds ${soFar}` : "typed";
      attempt.outcome({ ...base, intent, session, decision: "done", outcome: { note } });
    });
    const text = JSON.stringify(lines(path));
    assert.doesNotMatch(text, /\bul\b|\bti\b|7x|ulti|lti|ti7|i7x/, text);
  });

  it("a password one session typed is kept out of another session's lines and another journal's", () => {
    const path = join(dir, "sessions.jsonl");
    const first = new AuditJournal(path);
    first.record({ ...base, intent: "Type it", session: "a", decision: "done" }, [
      { text: "Wq9!vL3x", password: true },
    ]);
    first.record({ ...base, intent: "Session b saw Wq9!vL3x", session: "b", decision: "done" });
    // Another context of the same process (an HTTP session, a second journal object).
    const second = new AuditJournal(path);
    second.record({ ...base, intent: "And vL3x, piece by piece", session: "c", decision: "done" });
    const text = JSON.stringify(lines(path));
    assert.doesNotMatch(text, /Wq9|vL3x/, text);
    assert.match(text, /Session b saw \[typed text\]/);
  });

  it("a password typed into one place over several calls is known to other sessions whole", () => {
    const path = join(dir, "stream.jsonl");
    const journal = new AuditJournal(path);
    for (const part of ["Zk4", "pR8m"])
      journal.record({ ...base, intent: "Type a part", session: "typist", decision: "done" }, [], {
        place: "ref e3",
        text: part,
        password: true,
      });
    journal.record({ ...base, intent: "Other client: Zk4pR8m, 4pR8", session: "other", decision: "done" });
    const text = JSON.stringify(lines(path));
    assert.doesNotMatch(text, /Zk4pR8m|4pR8/, text);
  });

  it("an ordinary value stays its own session's: another session's words are not masked", () => {
    const path = join(dir, "plain.jsonl");
    const journal = new AuditJournal(path);
    journal.record({ ...base, intent: "Type it", session: "x", decision: "done" }, [
      { text: "monthly report" },
    ]);
    journal.record({ ...base, intent: "Open the monthly report", session: "y", decision: "done" });
    assert.match(readFileSync(path, "utf8"), /monthly report/);
  });
});

describe("a one-character value typed where no password goes", () => {
  it("is not masked as a word of the intent; a password's one key at a time is", () => {
    assert.equal(
      withoutSecrets("Type a letter into the field", [{ text: "a" }]),
      "Type a letter into the field",
    );
    assert.equal(
      withoutSecrets("Type a letter into the field", [{ text: "a", password: true }]),
      "Type [typed text] letter into the field",
    );
    assert.equal(
      withoutSecrets("Say ok to it", [{ text: "ok" }]),
      "Say [typed text] to it",
      "two letters still are",
    );
  });
});
