// Committing by meaning (src/safety/meanings.ts, data/meanings.json): each class in English and in
// every language of the table, inflections, the communication verbs that commit nothing, a cancel
// word's committing object, and ordinary labels that stay input (L2).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { commitReason, type TargetFacts } from "../../src/safety/classify.js";
import { committingMeaning } from "../../src/safety/meanings.js";

const MAIN = { role: "frame", states: [] };
const press = (name: string, role = "push button", window: TargetFacts["window"] = MAIN): TargetFacts => ({
  role,
  name,
  window,
});
const commits = (name: string, role?: string) => commitReason(press(name, role));

const meanings = JSON.parse(readFileSync(new URL("../../data/meanings.json", import.meta.url), "utf8")) as {
  classes: Record<string, string>;
  english: Record<string, { meaning: string; forms: string[]; first?: true }>;
  translations: Record<string, Record<string, string[]>>;
};

describe("committing by meaning", () => {
  it("each class commits in English, as a main window's button, with its class named", () => {
    const classes: Record<string, string[]> = {
      "money leaves": [
        "Book now",
        "Reserve a table",
        "Bid",
        "Subscribe",
        "Withdraw funds",
        "Tip the driver",
        "Prepay",
        "Remit",
        "Sell",
        "Refund",
      ],
      "data leaves the app": ["Export", "Sync", "Synchronize", "Fax", "Broadcast", "Transmit"],
      "something is destroyed": [
        "Truncate table",
        "Force push",
        "Demolish",
        "Obliterate",
        "Shred",
        "Nullify",
        "Annul",
        "Eradicate",
      ],
      "a state is fixed that the app cannot undo": [
        "Sign document",
        "Ratify",
        "Certify",
        "Finalize",
        "Enroll",
        "Endorse",
      ],
    };
    for (const [what, labels] of Object.entries(classes))
      for (const label of labels) {
        assert.equal(committingMeaning(label)?.what, what, label);
        assert.match(commits(label) ?? "", new RegExp(what), label);
      }
    // The phrases the gate had already (pay, send, delete, confirm…) commit as before.
    for (const label of [
      "Pay",
      "Buy",
      "Send",
      "Submit",
      "Delete",
      "Erase",
      "Confirm",
      "Apply",
      "Merge",
      "Deploy",
    ])
      assert.ok(commits(label), label);
  });

  it("inflections commit: paying, paid, booked, bidding, withdrawing, forcing, truncating", () => {
    for (const label of [
      "Paying",
      "Paid in full now",
      "Booked for me",
      "Booking",
      "Bidding",
      "Withdrawing",
      "Withdrew funds",
      "Forcing",
      "Truncating",
      "Truncated table",
      "Overwriting",
      "Subscribing",
      "Exporting",
      "Donating",
    ])
      assert.ok(commits(label), label);
    assert.deepEqual(meanings.english.pay?.forms, ["paid", "pay", "paying", "pays"]);
    assert.ok(meanings.english.bid?.forms.includes("bidding"), "the consonant doubles");
    // Alone, a past form names a state: a view "Installed", a folder "Sent".
    for (const label of ["Installed", "Sent", "Deleted", "Paid"])
      assert.equal(commits(label), undefined, label);
    // So it does beside "only", a filter of a view ("Paid only"); the verb itself there still acts.
    for (const label of ["Paid only", "Only installed"]) assert.equal(commits(label), undefined, label);
    assert.ok(commits("Pay only"), "Pay only");
    // After a verb that shows a view it is what the view shows ("Show sent"); "Show and send" acts.
    for (const label of ["Show sent", "Hide deleted items", "View paid invoices"])
      assert.equal(commits(label), undefined, label);
    assert.ok(commits("Show and send"), "Show and send");
    // A verb that is mostly a noun, its past form before what it describes: the other sense
    // (LibreOffice's "Ordered List", a list in order); after it, an act ("Booked for me", above).
    for (const label of ["Ordered List", "Booked seats"]) assert.equal(commits(label), undefined, label);
  });

  it("every word of every language's table commits as a button, in each class", () => {
    const languages = Object.keys(meanings.translations);
    assert.ok(languages.length >= 15, `${languages.length} languages`);
    for (const [language, classes] of Object.entries(meanings.translations)) {
      for (const meaning of Object.keys(meanings.classes))
        assert.ok((classes[meaning] ?? []).length > 0, `${language} has words for ${meaning}`);
      for (const words of Object.values(classes))
        for (const word of words) assert.ok(commits(word), `${language}: ${word}`);
    }
    for (const label of ["결제", "결제하기", "구매", "주문하기", "송금", "삭제", "전송", "지금 결제"])
      assert.ok(commits(label), label);
    for (const label of [
      "お支払い",
      "購入する",
      "立即购买",
      "轉帳",
      "Jetzt bezahlen",
      "Überweisung",
      "Оплатить",
    ])
      assert.ok(commits(label), label);
  });

  it("say, tell, ask and the other communication verbs have no committing meaning", () => {
    for (const label of [
      "Say",
      "Say hello",
      "Tell a friend",
      "Tell me more",
      "Ask",
      "Ask a question",
      "Explain",
    ])
      assert.equal(committingMeaning(label), undefined, label);
    // Where the catalogs show them leading harmless labels they pass; "Tell a friend" and "Say" ask: no
    // catalog shows "tell" or "say" leading a harmless label (label-reading.test.ts).
    for (const label of ["Ask", "Ask a question", "Explain"]) assert.equal(commits(label), undefined, label);
    assert.match(commits("Say") ?? "", /"say" is an English verb no catalog/);
    for (const verb of ["say", "tell", "ask", "give", "take", "open", "show", "edit", "cancel", "forward"])
      assert.equal(meanings.english[verb], undefined, `${verb} is not a committing verb`);
  });

  it("a label that starts with a cancel word is judged by what it commits; Cancel alone stays harmless", () => {
    for (const label of [
      "Cancel subscription",
      "Cancel my membership",
      "Cancel booking",
      "Cancel order",
      "Cancel payment",
      "Abbrechen und löschen",
      "Place bid",
      "Make a payment",
    ])
      assert.ok(commits(label), label);
    assert.equal(commits("Cancel"), undefined);
    assert.equal(
      commitReason(press("Cancel", "push button", { role: "dialog", states: ["modal"] })),
      undefined,
    );
    assert.equal(commits("Cancel download"), undefined, "stopping a download destroys nothing");
    assert.equal(commits("Abbrechen"), undefined);
  });

  it("ordinary labels stay input (L2)", () => {
    for (const label of [
      "Next",
      "Open",
      "Search",
      "Close Bracket",
      "Address Book",
      "Tip of the day",
      "Tips",
      "Sign in",
      "Forward",
      "Settings",
      "Edit",
      "View",
      "Copy",
      "Refresh",
      "Download",
      "Release notes",
      "Books",
      "Help",
      "Properties",
      "Select all",
      "Done",
      "Activate Next Tab",
      "United Kingdom",
      "Annuler",
      "Annulla",
    ])
      assert.equal(commits(label), undefined, label);
    assert.equal(commits("Send me the newsletter", "check box"), undefined, "ticking a box sends nothing");
    // Data that a list shows is not a command: a folder "Paid", a tab "Bookings".
    assert.equal(commits("Paid", "tree item"), undefined);
    assert.equal(commits("Bookings", "page tab"), undefined);
  });
});
