// No secret in any journal line: credentials found by their look, format characters looked through,
// a password's pieces masked across lines, and a password one session typed kept out of another's.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { AuditJournal, scrub, withoutSecrets } from "../../src/safety/audit.js";
import { credentialRanges, holdsCredential, secretField } from "../../src/safety/secrets.js";
import { callTool } from "../../src/tools/call.js";
import { RECORDER, Recorder } from "../../src/tools/recording.js";
import { toolNamed } from "../../src/tools/registry.js";
import { oneWindow } from "./fake-desktop.js";

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
      const line = scrub(entry(`Check that "hun${mark}ter2" took`), [{ text: "hunter2", password: true }]);
      assert.equal(
        (line as { intent: string }).intent,
        'Check that "[typed text]" took',
        JSON.stringify(mark),
      );
    }
  });

  it("a value typed with a format character inside is found without it", () => {
    const line = scrub(entry("Check that hunter2 took"), [{ text: "hun\u200bter2", password: true }]);
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
    assert.equal(withoutSecrets("Say ok to it", [{ text: "ok" }]), "Say ok to it", "plain text is no secret");
  });
});

describe("secrets everywhere, and only secrets (issue 54)", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-store-"));
  let n = 0;
  const fresh = () => join(dir, `journal-${++n}.jsonl`);
  const read = (path: string) => readFileSync(path, "utf8");
  const done = { ...base, decision: "done" as const };
  // No mask starts or ends inside a word.
  const cutInsideWord = /[\p{L}\p{N}]\[typed text\]|\[typed text\][\p{L}\p{N}]/u;

  it("a card number is masked by its look, with spaces, dashes or none; other numbers stay", () => {
    for (const card of [
      "4111 1111 1111 1111",
      "4111-1111-1111-1111",
      "4111111111111111",
      "3782 822463 10005",
      "4111.1111.1111.1111",
      "4111  1111  1111  1111",
      "４１１１ １１１１ １１１１ １１１１",
    ])
      assert.equal(withoutSecrets(`pay with ${card} now`, []), "pay with [typed text] now", card);
    for (const plain of [
      "order 1234 5678 9012 3456",
      "at 1733312345678 ms",
      "call +1 555 123 4567",
      "2026-12-04",
      "pi is 3.14159265358979",
      "4111 1111 1111 1112",
    ])
      assert.equal(
        withoutSecrets(plain, []),
        plain,
        "not Luhn-valid, not a card's first digit, or too short",
      );
  });

  it("a key written in one case, or with its letters spaced, is still masked", () => {
    const key = "Zq8Lm3Xv7Rt2Np9Wk4Hs6Jd1Fb5Gc0Ye";
    for (const written of [key.toLowerCase(), key.toUpperCase(), "GHP_1A2B3C4D5E6F7G8H9I0JKLMNOPQRSTUV"])
      assert.equal(withoutSecrets(`key ${written} here`, []), "key [typed text] here", written);
    // Typed once, it is known in any case and spacing, even where its look is lost.
    const path = fresh();
    const journal = new AuditJournal(path);
    journal.record({ ...done, intent: "Paste the key" }, [{ text: key }]);
    const spaced = key
      .toLowerCase()
      .match(/.{1,4}/g)!
      .join(" ");
    new AuditJournal(path).record({ ...done, intent: "Check", target: { name: `it said ${spaced}.` } });
    assert.doesNotMatch(read(path), /zq8l|m3xv|gc0ye/i, read(path));
    assert.match(read(path), /it said \[typed text\]\./);
  });

  it("plain text typed before is never masked, inside a word or as one", () => {
    const path = fresh();
    const journal = new AuditJournal(path);
    for (const text of ["the", "n't", "did", "Hello world"])
      journal.record(
        { ...done, intent: `Type ${text}`, target: { role: "text", name: "Editor" } },
        [{ text }],
        {
          place: "ref e1",
          text,
          password: false,
        },
      );
    const reason = "after the line break the keyboard focus neither moved nor took it as text; didn't answer";
    journal.record({ ...base, intent: "Type a line break", decision: "refused", reason });
    const last = JSON.parse(read(path).trim().split("\n").at(-1)!);
    assert.equal(last.reason, reason);
    assert.match(read(path), /Hello world/, "a plain value stays, even on its own line");
  });

  it("a password's piece is masked standing alone or with its digits, never cut out of a word", () => {
    const line = withoutSecrets("neither the nei9 nor Xneit9z, Password: xneit9", [
      { text: "Xneit9", password: true },
    ]);
    assert.equal(line, "neither the nei9 nor [typed text], Password: [typed text]");
    assert.doesNotMatch(line, cutInsideWord);
  });

  it("a value typed into a code field (one-time code, PIN, CVV) is a secret; a postal code is not", () => {
    const path = fresh();
    const journal = new AuditJournal(path);
    journal.record(
      {
        ...done,
        intent: "Type the code",
        target: { role: "text", name: "Verification code" },
        text_length: 6,
      },
      [{ text: "482913" }],
    );
    journal.record(
      { ...done, intent: "Type the zip", target: { role: "text", name: "Zip code" }, text_length: 5 },
      [{ text: "90210" }],
    );
    new AuditJournal(path).record({ ...done, intent: "It said 482913 for 90210", session: "other" });
    assert.match(read(path), /It said \[typed text\] for 90210/);
    const codes = [
      "PIN",
      "CVV",
      "Código de verificación",
      "Sicherheitscode",
      "Код подтверждения",
      "認証コード",
      "验证码",
    ];
    const plain = [
      "Zip code",
      "Promo code",
      "Spin",
      "Barcode",
      "Country code",
      "Name",
      "Format Code",
      "Formatcode",
    ];
    assert.deepEqual(
      [...codes, ...plain].filter((name) => secretField(name)),
      codes,
    );
  });

  it("another HTTP session's secrets, through another journal object, are kept out", () => {
    const path = fresh();
    const first = new AuditJournal(path);
    first.record({ ...done, intent: "Log in", session: "http-a" }, [{ text: "Wq9!vL3x", password: true }]);
    // A card number and a security code typed into ordinary fields: secrets by look and by field.
    first.record({ ...done, intent: "Pay", session: "http-a", target: { role: "text", name: "Card" } }, [
      { text: "5555 5555 5555 4444" },
    ]);
    first.record(
      // A form's line for its code field: the other fields' values stay plain.
      {
        ...done,
        intent: "Code",
        session: "http-a",
        target: { role: "text", name: "Security code" },
        text_length: 4,
      },
      [{ text: "7391" }, { text: "Ada Lovelace" }],
    );
    new AuditJournal(path).record({
      ...done,
      intent: "Saw wq9!VL3X and vL3x",
      reason: "card 5555.5555.5555.4444, code 7391, name Ada Lovelace",
      session: "http-b",
    });
    const last = JSON.parse(read(path).trim().split("\n").at(-1)!);
    assert.equal(last.intent, "Saw [typed text] and [typed text]");
    assert.equal(last.reason, "card [typed text], code [typed text], name Ada Lovelace");
  });

  it("a second process knows the first one's password and the run typed into one place across both", () => {
    const path = fresh();
    const journal = new AuditJournal(path);
    const typed = (text: string) => ({ place: "window 7", text, password: true });
    journal.record(
      { ...done, intent: "Type the first part" },
      [{ text: "Rt5", password: true }],
      typed("Rt5"),
    );
    const script = `
      import { AuditJournal } from "./src/safety/audit.ts";
      const j = new AuditJournal(${JSON.stringify(path)});
      const base = { time: "t", tool: "type_text", level: "L2", reversible: true, target: null, decision: "done" };
      j.record({ ...base, intent: "Type the rest" }, [{ text: "vXp2", password: true }],
        { place: "window 7", text: "vXp2", password: true });
      j.record({ ...base, intent: "Check", reason: "the field took rt5vxp2, t5vX and 5vXp" });`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    assert.equal(child.status, 0, child.stderr);
    // Back in this process, whose memory of the store is older: it reads what the other added.
    journal.record({ ...done, intent: "Done", reason: "Rt5vXp2 is set; 5vXp too" });
    const text = read(path);
    assert.doesNotMatch(text, /rt5v|t5vx|5vxp|vxp2/i, text);
    assert.equal(text.match(/\[typed text\]/g)?.length, 5, text);
  });

  it("a window raised between two parts typed into one place does not split the run", () => {
    const path = fresh();
    const journal = new AuditJournal(path);
    const typed = (text: string) => ({ place: "window 7", text, password: true });
    journal.record({ ...done, intent: "Type" }, [{ text: "Zk4", password: true }], typed("Zk4"));
    journal.record({ ...done, tool: "window.focus", intent: "Type" });
    journal.record({ ...done, intent: "Type" }, [{ text: "pR8m", password: true }], typed("pR8m"));
    journal.record({ ...done, intent: "Check", reason: "it holds k4pR" });
    assert.equal(JSON.parse(read(path).trim().split("\n").at(-1)!).reason, "it holds [typed text]");
  });

  it("the store holds no secret in plain text, is the user's own, and refuses a symlink", () => {
    const path = fresh();
    new AuditJournal(path).record({ ...done, intent: "Log in" }, [{ text: "Mx4!pQ7z", password: true }]);
    const store = `${path}.secrets`;
    assert.equal(statSync(store).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(store, "utf8"), /mx4|pq7z|x4!p/i);
    const linked = fresh();
    symlinkSync(store, `${linked}.secrets`);
    assert.throws(
      () => new AuditJournal(linked).record({ ...done, intent: "x" }),
      /audit journal .*\.jsonl cannot be written \(its secret store .*\.secrets: it is a symbolic link/,
    );
  });

  it("stays bounded under two processes appending at once, keeping the newest", async () => {
    const path = fresh();
    // Long passwords: many pieces each, so a few calls fill the store past its bound.
    const password = (who: string, i: number) =>
      `${who}${i}#${Array.from({ length: 40 }, (_, k) => ((i * 7919 + k * 104729) % 99991).toString(36)).join("")}`;
    const COUNT = 100;
    const script = `
      import { AuditJournal } from "./src/safety/audit.ts";
      const j = new AuditJournal(${JSON.stringify(path)});
      const base = { time: "t", tool: "type_text", level: "L2", reversible: true, target: null, decision: "done" };
      const password = ${password.toString()};
      for (let i = 0; i < ${COUNT}; i++) j.record({ ...base, intent: "x" }, [{ text: password("child", i), password: true }]);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: "inherit",
    });
    const journal = new AuditJournal(path);
    for (let i = 0; i < COUNT; i++)
      journal.record({ ...done, intent: "x" }, [{ text: password("parent", i), password: true }]);
    assert.equal(await new Promise((resolve) => child.on("exit", resolve)), 0);
    const size = statSync(`${path}.secrets`).size;
    assert.ok(size <= 600 * 1024, `${size} bytes`);
    const last = COUNT - 1;
    new AuditJournal(path).record({
      ...done,
      intent: "x",
      reason: `${password("parent", last)} and ${password("child", last)}`,
    });
    assert.equal(JSON.parse(read(path).trim().split("\n").at(-1)!).reason, "[typed text] and [typed text]");
  });
});

describe("a recording keeps card numbers, codes and others' secrets out", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-record-secrets-"));
  const field = (name: string): FakeElement => ({
    role: "text",
    name,
    text: "",
    states: ["enabled", "sensitive", "showing", "visible", "focusable", "editable"],
    interfaces: ["Accessible", "Component", "Text", "EditableText"],
    bounds: { x: 20, y: 40, width: 200, height: 24 },
  });

  it("a card number with spaces and a one-time code become secret parameters; an intent quoting them is masked", async () => {
    const { context } = oneWindow(
      "Checkout",
      [field("Card number"), field("One-time code"), field("Name")],
      dir,
    );
    const path = join(dir, "checkout.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    const values = [
      ["Card number", "4111 1111 1111 1111", "Pay with 4111-1111-1111-1111"],
      ["One-time code", "482913", "Type 482913"],
      ["Name", "Ada Lovelace", "Type the name"],
    ];
    for (const [name, text, intent] of values) {
      const found = await callTool(context, toolNamed("find"), { target: { kind: "focused" }, name });
      assert.ok(found.ok, name);
      const ref = (found.output.data.matches as { ref: string }[])[0]!.ref;
      const acted = await callTool(context, toolNamed("act"), {
        ref,
        action: { kind: "set_value", text },
        intent,
      });
      assert.ok(acted.ok, JSON.stringify(acted));
    }
    await context.close();
    const written = readFileSync(path, "utf8");
    assert.doesNotMatch(written, /4111|482913/, written);
    const file = JSON.parse(written);
    assert.deepEqual(
      file.steps.map((s: { args: { action: { text: unknown } } }) => s.args.action.text),
      [{ $param: "secret_1" }, { $param: "password_2" }, "Ada Lovelace"],
    );
    assert.equal(file.steps[0].args.intent, "Pay with [typed text]");
    assert.equal(file.steps[1].args.intent, "Type [typed text]");
    assert.deepEqual([file.params.secret_1.secret, file.params.password_2.secret], [true, true]);
  });
});
