// Shared by the class-by-class proofs of the gate on GTK 4, Swing and a web page
// (gate-classes-gtk4.test.ts, gate-classes-swing.test.ts, gate-classes-web.test.ts): each judges one
// window's controls through the real tools with no person to ask, and reads the app's own log (or
// state) to show what happened; the secrets' part reads the journal, the recording and every reply.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HANG_MS, type toolCaller, within } from "./helpers.js";

type Call = ReturnType<typeof toolCaller>;
type Result = Awaited<ReturnType<Call>>;

/** The lines an app appended to its log, in order. */
export const logLines = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];

/** Waits until a line of the log matches: the input reached the app and took effect. */
export async function untilLogged(log: string, line: string | RegExp): Promise<void> {
  const hit = () => logLines(log).some((l) => (typeof line === "string" ? l === line : line.test(l)));
  const deadline = Date.now() + within(HANG_MS);
  while (!hit() && Date.now() < deadline) await sleep(100);
  assert.ok(hit(), `${line} was logged: ${JSON.stringify(logLines(log))}`);
}

/** The call went through the gate with no person to ask: done, not refused. */
export function passed(result: Result, what: string): void {
  assert.ok(
    result.ok && result.data?.status !== "refused",
    `${what} passes: ${JSON.stringify(result.data ?? result.error)}`,
  );
}

/** The gate refused the call (there is no person to ask), saying why. */
export function refused(result: Result, what: string, reason?: RegExp): void {
  const why = result.ok ? result.data?.reason : result.error?.message;
  assert.ok(
    result.ok ? result.data?.status === "refused" : result.error?.code === "refused",
    `${what} is refused: ${JSON.stringify(result.data ?? result.error)}`,
  );
  if (reason) assert.match(String(why), reason, what);
}

/** Waits a moment, then: no line of the log matches (the refused input never reached the app). */
export async function neverLogged(log: string, line: RegExp, what: string): Promise<void> {
  await sleep(within(400));
  const hits = logLines(log).filter((l) => line.test(l));
  assert.deepEqual(hits, [], `${what}: the app never did it: ${JSON.stringify(logLines(log))}`);
}

/** Text folded as the tests compare it: NFKC, lower case, no spaces. */
export const folded = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/\s+/gu, "");

/** Every run of `length` characters of the folded value: its pieces. */
export function pieces(value: string, length: number): string[] {
  const f = [...folded(value)];
  if (f.length <= length) return [f.join("")];
  return Array.from({ length: f.length - length + 1 }, (_, i) => f.slice(i, i + length).join(""));
}

/**
 * The folded text holds none of the pieces (each found, if any, named): where a secret would show
 * in a journal line, a recording or a reply.
 */
export function holdsNone(text: string, secretPieces: string[], where: string): void {
  const f = folded(text);
  const found = secretPieces.filter((p) => f.includes(p));
  assert.deepEqual(found, [], `${where} holds no piece of a secret`);
}

/** Every recording written in the folder, as one text. */
export function recordingsIn(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}

/** A password whose every run of four holds a digit or a symbol, and a Luhn-valid card number. */
export const SECRETS = { password: "Qz7!mK2#vR9p", card: "5371 1890 2645 7730" };

/**
 * The pieces a secret case must never show: the password's runs of 4 (it is typed into a password
 * field) and the card number's runs of 12 (a card number is found by its look, and masked by them).
 */
/** What the twin windows (GTK 4's and Swing's) log once they took each value typed in. */
export const TOOK_LINES = {
  password: `password ${SECRETS.password.length}`,
  card: `card ${SECRETS.card}`,
  notes: "notes lunch with Mireille",
} as const;

export const SECRET_PIECES = [...pieces(SECRETS.password, 4), ...pieces(SECRETS.card, 12)];

/** Every string of a reply, its text and its data, as one text to search. */
export const replyText = (result: Result): string => JSON.stringify([result.text, result.data, result.error]);

/**
 * The secrets' proof, the same on every toolkit: a password, a card number and a plain note typed
 * into the window's fields (named "Password", "Card number", "Notes"; `field` the role of the two
 * text ones) while recording; the app says it took each (`took`: "password 12", "card …", "notes …");
 * then no journal line, recording or reply holds a piece of either secret, the card reads masked, and
 * the note stays plain.
 */
export async function secretsKeptOut(o: {
  call: Call;
  element: (query: Record<string, unknown>) => Promise<{ ref: string }>;
  title: string;
  dir: string;
  kit: string;
  field: string;
  took: (what: "password" | "card" | "notes") => Promise<void>;
}): Promise<void> {
  const replies: string[] = [];
  const kept = async (tool: Parameters<Call>[0], input: Record<string, unknown>) => {
    const result = await o.call(tool, input);
    replies.push(replyText(result));
    passed(result, tool);
    return result;
  };
  await kept("record", { action: "start", name: `${o.kit}-secrets` });
  try {
    const password = await o.element({ role: "password text", name: "Password" });
    await kept("type_text", {
      ref: password.ref,
      text: SECRETS.password,
      intent: `Type ${SECRETS.password}`,
    });
    const card = await o.element({ role: o.field, name: "Card number" });
    await kept("type_text", { ref: card.ref, text: SECRETS.card, intent: `Enter the card ${SECRETS.card}` });
    const notes = await o.element({ role: o.field, name: "Notes" });
    await kept("type_text", {
      ref: notes.ref,
      text: "lunch with Mireille",
      intent: "Note lunch with Mireille",
    });
  } finally {
    await kept("record", { action: "stop" });
  }
  for (const what of ["password", "card", "notes"] as const) await o.took(what);
  const target = { kind: "title", glob: o.title };
  const snapshot = await o.call("snapshot", { target });
  // The card number is in the field (the app said so), and the reply says it is kept out.
  assert.match(snapshot.text ?? "", new RegExp(`${o.field} "Card number".*= "<hidden: card number or key>"`));
  assert.match(
    snapshot.text ?? "",
    new RegExp(`${o.field} "Notes".*= "lunch with Mireille"`),
    "plain text is shown as it is",
  );
  replies.push(replyText(snapshot));
  replies.push(replyText(await o.call("observe", { target })));
  const card = await o.element({ role: o.field, name: "Card number" });
  replies.push(replyText(await o.call("element_info", { ref: card.ref })));
  const read = await o.call("read_text", { ref: card.ref });
  assert.equal(read.data?.text, "•".repeat(SECRETS.card.length), JSON.stringify(read));
  replies.push(replyText(read));
  const journal = readFileSync(join(o.dir, "audit.jsonl"), "utf8");
  holdsNone(journal, SECRET_PIECES, "the journal");
  holdsNone(recordingsIn(join(o.dir, "recordings")), SECRET_PIECES, "the recording");
  for (const [i, reply] of replies.entries()) holdsNone(reply, SECRET_PIECES, `reply ${i}`);
  assert.match(journal, /Note lunch with Mireille/, "plain text stays unmasked");
}

/** A control as `find` answers it: its ref, name and place. */
export type Found = { ref: string; name: string | null; bounds: { x: number; y: number } | null };

/**
 * The committing classes on a desktop window (GTK 4's and Swing's twins): a command in another
 * language (`command`: its label, a word of the refusal, the line it logs), the unnamed icon beside
 * it, symbols, Enter in "Amount", the option "Delete all rows" of the `rows` combo box, and "Slide to
 * pay" are each refused, and the app's log shows none happened.
 */
export async function commitsRefused(o: {
  call: Call;
  log: string;
  intent: string;
  element: (query: Record<string, unknown>) => Promise<Found>;
  all: (query: Record<string, unknown>) => Promise<Found[]>;
  command: { label: string; word: RegExp; logs: RegExp };
  rows: string;
}): Promise<void> {
  const { call, log, intent } = o;
  const label = o.command.label;
  const invoice = await o.element({ role: "push button", name: label });
  refused(await call("click", { ref: invoice.ref, intent }), label, o.command.word);
  refused(await call("act", { ref: invoice.ref, action: { kind: "invoke" }, intent }), `${label} by act`);
  await neverLogged(log, o.command.logs, label);
  // The icon button beside it: no name, no label.
  const row = (await o.all({ role: "push button" })).filter((b) => b.bounds?.y === invoice.bounds?.y);
  const icon = row.find((b) => !b.name);
  assert.ok(icon, JSON.stringify(row));
  refused(await call("click", { ref: icon.ref, intent }), "the unnamed icon", /unnamed/);
  await neverLogged(log, /icon pressed/, "the unnamed icon");
  const symbols = await o.element({ role: "push button", name: "✓ ➜" });
  refused(await call("click", { ref: symbols.ref, intent }), "✓ ➜", /symbols only/);
  await neverLogged(log, /symbols pressed/, "✓ ➜");
  // Enter in "Amount" presses the default "Pay" (Swing), or runs the entry's own action, which no
  // toolkit reports (GTK 4.8 reports no default).
  const amount = await o.element({ role: "text", name: "Amount" });
  const field = /default button|field's own action/;
  refused(await call("key", { ref: amount.ref, key: "Enter", intent }), "Enter in Amount", field);
  refused(await call("type_text", { ref: amount.ref, text: "3\n", intent }), "3 and Enter in Amount", field);
  await neverLogged(log, /paid/, "Enter in Amount");
  const rows = await o.element({ role: "combo box", name: o.rows });
  refused(
    await call("act", { ref: rows.ref, action: { kind: "select", option: "Delete all rows" }, intent }),
    "select Delete all rows",
    /Delete all rows/,
  );
  await neverLogged(log, /chose Delete/, "select Delete all rows");
  const slider = await o.element({ role: "slider", name: "Slide to pay" });
  refused(
    await call("act", { ref: slider.ref, action: { kind: "set_range", value: 100 }, intent }),
    "set_range",
    /pay/,
  );
  refused(await call("key", { ref: slider.ref, key: "End", intent }), "End on Slide to pay", /pay/);
  await neverLogged(log, /slid/, "Slide to pay");
}
