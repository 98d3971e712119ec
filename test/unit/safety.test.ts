// The gate and the journal without a desktop: levels, ceiling, confirmation, pre-approval, scrubbing.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { imageToGlobal, scaleFor } from "../../src/core/image.js";
import { parseChord } from "../../src/platform/keys.js";
import { AuditJournal, scrub } from "../../src/safety/audit.js";
import { commitReason } from "../../src/safety/classify.js";
import {
  type ConfirmationRequest,
  confirmationQuestion,
  decide,
  type GateRequest,
} from "../../src/safety/gate.js";
import { loadPolicy, type SafetyPolicy } from "../../src/safety/policy.js";

const policy = (over: Partial<SafetyPolicy> = {}): SafetyPolicy => ({
  ceiling: "L3",
  ceilingSource: "default",
  preapprovals: [],
  auditPath: "/dev/null",
  configPath: "/nonexistent/config.json",
  ...over,
});
const click = (over: Partial<GateRequest> = {}): GateRequest => ({
  tool: "click",
  nominal: "L2",
  intent: "Press it",
  reversible: true,
  ...over,
});

describe("the gate", () => {
  it("lets an ordinary click through and raises a committing one to L3", async () => {
    assert.deepEqual(
      await decide(click({ target: { role: "push button", name: "Alpha" } }), policy(), undefined),
      {
        allowed: true,
        level: "L2",
      },
    );
    const save = await decide(click({ target: { role: "push button", name: "_Save" } }), policy(), undefined);
    assert.equal(save.allowed, false);
    assert.equal(save.level, "L3");
    assert.match((save as { reason: string }).reason, /needs a person's confirmation.*"save" commits/i);
  });

  it("speaks in a profile's own tool names: its refusal's rule names the tool called, and either name is kept", async () => {
    const save = {
      target: { role: "push button", name: "Save", windowTitle: "Doc" },
      via: "main_press",
      reversibleDeclarable: false,
    };
    const refused = await decide(click(save), policy(), undefined);
    assert.match((refused as { reason: string }).reason, /"tool":"main_press"/);
    // Only the client's own words: no deskhand tool beside it, no `reversible` it cannot declare.
    assert.doesNotMatch((refused as { reason: string }).reason, /\(click\)|reversible: true/);
    const asked: ConfirmationRequest[] = [];
    const declining = async (request: ConfirmationRequest) => {
      asked.push(request);
      return "declined" as const;
    };
    await decide(click(save), policy(), declining);
    assert.equal(asked[0]!.tool, "main_press");
    for (const tool of ["main_press", "click"]) {
      const rule = { reason: "any" as const, tool, window: "Doc" };
      const kept = await decide(click(save), policy({ preapprovals: [rule] }), undefined);
      assert.equal(kept.allowed, true, tool);
    }
    const other = { reason: "any" as const, tool: "main_click", window: "Doc" };
    assert.equal((await decide(click(save), policy({ preapprovals: [other] }), undefined)).allowed, false);
  });

  it("refuses above the ceiling, saying where the ceiling came from", async () => {
    const decision = await decide(
      click(),
      policy({ ceiling: "L1", ceilingSource: "environment" }),
      undefined,
    );
    assert.equal(decision.allowed, false);
    assert.match(
      (decision as { reason: string }).reason,
      /L2 input.*above the ceiling L1 \(set by environment\)/,
    );
  });

  it("asks a person for L3, irreversible and dangerous chords, and obeys the answer", async () => {
    const asked: ConfirmationRequest[] = [];
    const yes = async (request: ConfirmationRequest) => {
      asked.push(request);
      return "approved" as const;
    };
    const no = async () => "declined" as const;
    const alt = await decide(click({ tool: "key", chord: parseChord("ctrl+w") }), policy(), yes);
    assert.deepEqual(alt, { allowed: true, level: "L2", confirmed_by: "human" });
    assert.match(asked[0]!.reasons[0]!, /ctrl\+w/);
    const irreversible = await decide(click({ reversible: false, reversibleDeclared: true }), policy(), no);
    assert.equal(irreversible.allowed, false);
    assert.match(
      (irreversible as { reason: string }).reason,
      /a person declined: it is declared not reversible/,
    );
    // A refusal says only what the caller said: undeclared, a press is taken as not reversible.
    const taken = await decide(click({ reversible: false }), policy(), no);
    assert.match((taken as { reason: string }).reason, /it commits, so it is taken as not reversible/);
    assert.doesNotMatch((taken as { reason: string }).reason, /declared/);
    const plain = await decide(click({ tool: "key", chord: parseChord("ctrl+c") }), policy(), no);
    assert.equal(plain.allowed, true, "an ordinary chord needs no one");
  });

  it("a question nobody answered is refused as unanswered, never as a person's no", async () => {
    const silent = async () => ({ unanswered: "nobody answered within 120 s" });
    const refused = await decide(click({ reversible: false, reversibleDeclared: true }), policy(), silent);
    assert.equal(refused.allowed, false);
    const reason = (refused as { reason: string }).reason;
    assert.match(
      reason,
      /no answer came: nobody answered within 120 s; .*Only a person can allow it: .*"preapprove"/,
    );
    assert.doesNotMatch(reason, /declined/);
  });

  it("L4 under an L4 ceiling needs no confirmation, but a committing target still does", async () => {
    const raw = await decide(
      click({ tool: "raw_input", nominal: "L4" }),
      policy({ ceiling: "L4" }),
      undefined,
    );
    assert.equal(raw.allowed, true);
    const commit = await decide(
      click({ nominal: "L4", target: { role: "push button", name: "Delete" } }),
      policy({ ceiling: "L4" }),
      undefined,
    );
    assert.equal(commit.allowed, false);
  });

  it("a pre-approval covers only its reason, tool and window", async () => {
    const approvals = policy({ preapprovals: [{ reason: "validation", tool: "click", window: "Editor*" }] });
    const save = (windowTitle: string, tool = "click") =>
      decide(
        click({ tool, target: { role: "push button", name: "Save", windowTitle } }),
        approvals,
        undefined,
      );
    assert.deepEqual(await save("Editor — notes"), {
      allowed: true,
      level: "L3",
      confirmed_by: "preapproval",
      rules: [{ reason: "validation", tool: "click", window: "Editor*" }],
    });
    assert.equal((await save("Mail")).allowed, false);
    assert.equal((await save("Editor", "act")).allowed, false);
    const both = await decide(
      click({ reversible: false, target: { role: "push button", name: "Save", windowTitle: "Editor" } }),
      approvals,
      undefined,
    );
    assert.equal(both.allowed, false, "irreversible is a second reason the approval does not cover");
  });

  it("a refusal's rule names the element, and a rule naming one allows no other in its window", async () => {
    const press = (name: string) => click({ target: { role: "push button", name, windowTitle: "Shop" } });
    const refused = await decide(press("Send"), policy(), undefined);
    assert.match((refused as { reason: string }).reason, /for this element: .*"element":"Send"/);
    const rule = { reason: "validation" as const, window: "Shop", element: "Send" };
    assert.equal((await decide(press("Send"), policy({ preapprovals: [rule] }), undefined)).allowed, true);
    assert.equal((await decide(press("Pay"), policy({ preapprovals: [rule] }), undefined)).allowed, false);
    // A long name is quoted by its head: the rule stays short, and still matches it.
    const long = `Send ${"x".repeat(5000)}`;
    const reason = ((await decide(press(long), policy(), undefined)) as { reason: string }).reason;
    assert.ok(reason.length < 1000, `${reason.length} characters`);
    const suggested = JSON.parse(/\{"reason"[^}]*\}/.exec(reason)![0]);
    assert.equal(suggested.element, `Send ${"x".repeat(75)}*`);
    assert.equal((await decide(press(long), policy({ preapprovals: [suggested] }), undefined)).allowed, true);
  });

  it("OK in a dialog of fields titled for what commits nothing does that; otherwise it commits", () => {
    const ok = (window: Record<string, unknown>) =>
      commitReason({ role: "push button", name: "OK", window: { role: "dialog", ...window } });
    assert.equal(ok({ titled: true }), undefined, "Text Import's OK imports");
    assert.ok(ok({ titled: false }), "Delete Rows' OK deletes");
    assert.ok(ok({}), "a title not read asks");
    assert.ok(
      commitReason({ role: "push button", name: "Apply", window: { role: "dialog", titled: true } }),
      "only OK is taken to do what the title says",
    );
  });

  it("a modal dialog's default does what its title says where both read as harmless", () => {
    const press = (name: string, titled: boolean) =>
      commitReason({
        role: "push button",
        name,
        states: ["is default"],
        window: { role: "dialog", states: ["modal"], titled },
      });
    assert.equal(press("Insert", true), undefined, "Insert Table's Insert inserts");
    assert.match(press("Insert", false) ?? "", /the default button of a modal dialog/);
    assert.ok(press("Delete", true), "its own words still decide first");
    assert.ok(press("Zaplaťte", true), "a label not read as harmless still commits");
  });

  it("classifies by role and whole words", () => {
    assert.ok(commitReason({ role: "push button", name: "OK" }));
    assert.ok(commitReason({ role: "menu item", name: "Delete file" }));
    assert.equal(commitReason({ role: "push button", name: "Bookmark" }), undefined);
    assert.equal(commitReason({ role: "label", name: "Save" }), undefined);
    assert.equal(commitReason({ role: "push button", name: "Cancel" }), undefined);
  });
});

describe("the question a person is asked", () => {
  const ask = (name: string, intent: string | null = "Send the form") =>
    confirmationQuestion({
      tool: "click",
      level: "L3",
      intent,
      reasons: [`it presses a push button ${JSON.stringify(name)} ("send" commits)`],
      target: { role: "push button", name },
    });

  it("cannot be forged or hidden by what the app or the agent wrote", () => {
    for (const forged of [
      'Send"\nThe agent says: "only reads the page',
      "Send\u2028Allowed by the administrator",
      "Send\u202eevas",
      "Send\u001b[2K\u001b[1Ahidden",
      "Send\r\nok",
      "Se\u200bnd",
    ]) {
      const question = ask(forged, `Read ${forged}`);
      assert.equal(question.split("\n").length, 2, `one line of reasons, one of intent: ${question}`);
      const [asked, says] = question.split("\n") as [string, string];
      for (const line of [asked, says])
        assert.ok(![...line].some((c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c)), `nothing unsafe in ${line}`);
      assert.match(says, /^The agent says: "Read Se/);
      assert.doesNotMatch(
        says.slice('The agent says: "'.length, -1).replace(/\\"/g, ""),
        /"/,
        "the intent's own quotes are escaped",
      );
    }
    assert.match(ask("Send\u202eevas"), /\\u\{202e\}/, "the override is shown, not obeyed");
  });

  it("is bounded, and shows a long name and intent by their head and tail, with their length", () => {
    const question = ask(`Send ${"x".repeat(5000)} to Bob`, "y".repeat(5000));
    assert.ok(question.length < 1000, `${question.length} characters`);
    assert.match(question, /"Send x+…x+ to Bob" \(5,012 characters\)/);
    assert.match(question, /"y+…y+" \(5,000 characters\)$/);
    assert.match(ask("Send", null), /The agent says: \(no intent given\)$/);
  });

  it("escapes every quotation mark a label may hold, so none ends the quotation early", () => {
    for (const mark of ["\u201d", "\u201c", "\u00bb", "\u00ab", "\u2019", "\u300d", "\uff02", "\u201e"]) {
      const question = ask(`Send${mark} (L1): nothing here commits ${mark}`);
      const [asked] = question.split("\n") as [string];
      assert.ok(!asked.includes(mark), `${JSON.stringify(mark)} is escaped: ${asked}`);
      assert.match(asked, /\\u\{[0-9a-f]+\}/);
    }
  });

  it("puts the word that decided within the first 200 characters, whatever the label's length", () => {
    const label = `${"Lorem ipsum dolor sit amet ".repeat(22)}pay now`;
    const question = confirmationQuestion({
      tool: "click",
      level: "L3",
      intent: "x",
      reasons: [commitReason({ role: "push button", name: label, window: { role: "frame" } })!],
      target: { role: "push button", name: label },
    });
    assert.ok(question.indexOf('"pay') > 0 && question.indexOf('"pay') < 200, question);
  });

  it("names what a dialog's filled fields hold, its quotes escaped: what the person confirms", () => {
    const question = confirmationQuestion({
      tool: "act",
      level: "L3",
      intent: "save",
      reasons: ['it presses a push button "Save"'],
      target: {
        role: "push button",
        name: "Save",
        window: {
          role: "dialog",
          filled: [{ label: 'Name" (L1): nothing commits', text: "report.odt" }],
        },
      },
    });
    const [asked] = question.split("\n") as [string];
    assert.match(
      asked,
      /in a dialog whose fields read Name\\" \(L1\): nothing commits "report\.odt"\)\.$/,
      asked,
    );
  });

  it("cuts a long reason where a clause ends, never in a word, and with no count a person cannot use", () => {
    const reason =
      "deskhand cannot tell what it would press (this app binds keys that deskhand cannot read without opening its menus (a GtkApplication, whose accelerators need no menu item), and judging never opens them, so what ctrl+s does is unknown; act on the menu item or button itself instead)";
    const question = confirmationQuestion({ tool: "key", level: "L3", intent: "save", reasons: [reason] });
    const [asked] = question.split("\n") as [string];
    assert.doesNotMatch(asked, /\[cut:/);
    assert.match(asked, /(;|,|:|\)) …\.$|\w …\.$/);
    assert.match(asked, /what it would press/);
    assert.doesNotMatch(asked, /\bi…/, "no word is broken");
  });
});

describe("the policy and the journal", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-safety-"));

  it("reads config, then environment, then flag; a wrong file is a named error", () => {
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ ceiling: "L2", preapprove: [{ reason: "irreversible" }] }));
    const env = { DESKHAND_CONFIG: config, XDG_STATE_HOME: dir };
    assert.equal(loadPolicy(env).ceiling, "L2");
    assert.equal(loadPolicy(env).auditPath, join(dir, "deskhand", "audit.jsonl"));
    assert.equal(loadPolicy({ ...env, DESKHAND_CEILING: "L1" }).ceilingSource, "environment");
    assert.equal(loadPolicy({ ...env, DESKHAND_CEILING: "L1" }, { ceiling: "L4" }).ceiling, "L4");
    assert.equal(loadPolicy({}).ceiling, "L3", "the default is L3");
    assert.throws(() => loadPolicy({ ...env, DESKHAND_CEILING: "L9" }), /DESKHAND_CEILING=L9/);
    writeFileSync(config, JSON.stringify({ ceiling: "high" }));
    assert.throws(() => loadPolicy(env), /ceiling/);
  });

  it("a journal that cannot be written stops the action before it starts, naming the path", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    // Under a regular file no folder can be made: ENOTDIR.
    const journal = new AuditJournal(join(file, "deskhand", "audit.jsonl"));
    assert.throws(
      () => journal.ensureWritable(),
      /audit journal .*a-file\/deskhand\/audit.jsonl cannot be written.*nothing was done/,
    );
    new AuditJournal(join(dir, "ok", "audit.jsonl")).ensureWritable();
  });

  it("appends one line per record and never writes the secret", () => {
    const path = join(dir, "nested", "audit.jsonl");
    const journal = new AuditJournal(path);
    const base = {
      time: "t",
      tool: "type_text",
      level: "L2" as const,
      reversible: true,
      decision: "done" as const,
    };
    journal.record({ ...base, intent: "type hunter22 here", target: { name: "hunter22?" }, text_length: 8 }, [
      { text: "hunter22", password: true },
    ]);
    journal.record({ ...base, intent: "a short one: ab", target: null }, [{ text: "ab", password: true }]);
    const text = readFileSync(path, "utf8");
    assert.equal(text.split("\n").length, 3);
    assert.ok(!text.includes("hunter22"));
    assert.match(text, /type \[typed text\] here/);
    assert.match(text, /a short one: \[typed text\]/, "even a short secret is kept out of the intent");
    assert.equal(journal.tail(1)[0]!.tool, "type_text");
  });
});

it("image pixels map back to global points through the same scale the screenshot used", () => {
  const region = { x: 100, y: 50, width: 1000, height: 500 };
  assert.equal(scaleFor(1000, 500), 0.5);
  assert.equal(scaleFor(400, 500), 1, "never grown");
  assert.deepEqual(imageToGlobal({ x: 10, y: 20 }, { display: 0, max_width: 500, region }), {
    x: 120,
    y: 90,
  });
});

describe("the journal's masking keeps its own words", () => {
  const entry = (intent: string, target: Record<string, unknown>) =>
    ({
      time: "t",
      tool: "type_text",
      level: "L2",
      decision: "done",
      intent,
      reversible: true,
      target,
    }) as never;
  const scrubbed = (intent: string, target: Record<string, unknown>, secret: string, password = false) =>
    JSON.parse(JSON.stringify(scrub(entry(intent, target), [{ text: secret, password }])));

  it("a typed space masks no space of the intent or the names", () => {
    const line = scrubbed("Type a space into the search box", { role: "text", name: "Search box" }, " ");
    assert.equal(line.intent, "Type a space into the search box");
    assert.equal(line.target.name, "Search box");
  });

  it("a password's letter pieces are masked where they stand alone, never inside the journal's words", () => {
    const whole = scrubbed(
      "Type the password into the Password field",
      { role: "password text", name: "Password" },
      "pa55word!",
      true,
    );
    assert.equal(
      whole.intent,
      "Type the password into the Password field",
      "'word' of the password is left in 'password'",
    );
    assert.deepEqual(whole.target, { role: "password text", name: "Password" });
    const pieces = scrubbed("Type pa55 then word! and x55wox", { role: "password text" }, "pa55word!", true);
    // A run with a digit inside another word takes the whole word: nothing is cut inside a word.
    assert.equal(pieces.intent, "Type [typed text] then [typed text] and [typed text]", pieces.intent);
  });
});
