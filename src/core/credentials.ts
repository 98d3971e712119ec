// Values that look like credentials whoever typed them and wherever: an API key, an access token, a
// JWT, a card number. The journal masks them in every line and a recording keeps them as secret
// parameters, so a key pasted into an ordinary field leaves no more trace than a password; a reply
// showing a field's value shows a marker in their place (core/value.ts). Keys are found in any case:
// one written all in lower or upper case is still the key. In core, below the journal and the
// replies both: safety/secrets.ts is its name there.

// Prefixes the issuers put on their keys, each followed by the key's own characters.
const PREFIXED = [
  /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,}/gi, // OpenAI, Anthropic, Stripe
  /\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/gi, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{20,}/gi, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/gi,
  /\bglpat-[A-Za-z0-9_-]{20,}/gi, // GitLab
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/gi, // Slack
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/gi, // AWS access key ids
  /\bAIza[A-Za-z0-9_-]{30,}/gi, // Google API keys
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/gi, // JWT: header.payload.signature
];

// A card number: 13 to 19 digits (full-width too) starting as the card networks' numbers do (2 to
// 6) and passing the Luhn check, never part of a longer number: single spaces or dashes anywhere
// between its digits, or groups of 3 to 6 digits apart by any one or two spaces, dashes or dots
// ("4111.1111.1111.1111", "3782  822463  10005"; not "3.14159265358979").
const DIGIT = /[0-9\uff10-\uff19]/.source;
const APART = /[\s.\u00a0\u2010-\u2015-]/.source;
const NOT_IN_NUMBER = `(?<![\\p{L}\\p{N}]|\\p{N}${APART})`;
const NOT_BEFORE_NUMBER = `(?![\\p{L}\\p{N}]|${APART}{1,2}\\p{N})`;
const CARDS = [
  new RegExp(`${NOT_IN_NUMBER}${DIGIT}(?:[ -]?${DIGIT}){12,18}${NOT_BEFORE_NUMBER}`, "gu"),
  new RegExp(`${NOT_IN_NUMBER}${DIGIT}{3,6}(?:${APART}{1,2}${DIGIT}{3,6}){2,5}${NOT_BEFORE_NUMBER}`, "gu"),
];

/** Whether a run reads as a card number: its digits' count and first digit, and the Luhn check. */
function card(run: string): boolean {
  const digits = run.normalize("NFKC").replace(/\D/g, "");
  if (digits.length < 13 || digits.length > 19 || !/^[2-6]/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// A run of key characters long enough to be a random key, judged by its mix (below).
const LONG_RUN = /[A-Za-z0-9+/=_]{24,}/g;
const HEX_RUN = /\b[0-9a-fA-F]{32,}\b/g;

/**
 * Whether a long run reads as random rather than as words: letters and at least two digits, and its
 * character class changing at almost a third of its steps (random base-62 text changes at about 60%;
 * "AbstractSingletonProxyFactoryBean2" at 15%). A key folded to one case has only letters and
 * digits to change between (random base-36 text at about 40%), so it needs three digits.
 */
function random(run: string): boolean {
  const core = run.replace(/[=]+$/, "");
  const digits = core.replace(/\D/g, "").length;
  const mixed = /[a-z]/.test(core) && /[A-Z]/.test(core);
  if (!/[a-z]/i.test(core) || digits < (mixed ? 2 : 3)) return false;
  const kind = (c: string) => (/[a-z]/.test(c) ? 0 : /[A-Z]/.test(c) ? 1 : /\d/.test(c) ? 2 : 3);
  let changes = 0;
  for (let i = 1; i < core.length; i++) if (kind(core[i]!) !== kind(core[i - 1]!)) changes++;
  return changes >= core.length * 0.3;
}

/** A hex run counts when it mixes digits and letters (a digest or key, not "deadbeef…" words). */
const randomHex = (run: string) => /\d/.test(run) && /[a-f]/i.test(run);

const FORMAT = /\p{Cf}/u;

/**
 * The ranges of `text` that look like credentials, sorted and merged. Format characters (a
 * zero-width space inside a key) are looked through: the ranges are in `text` as written.
 */
export function credentialRanges(written: string): [number, number][] {
  let text = "";
  const at: number[] = [];
  for (let i = 0; i < written.length; i++)
    if (!FORMAT.test(written[i]!)) {
      text += written[i];
      at.push(i);
    }
  at.push(written.length);
  const found: [number, number][] = [];
  const scan = (pattern: RegExp, keep: (run: string) => boolean = () => true) => {
    for (const m of text.matchAll(pattern))
      if (keep(m[0])) found.push([at[m.index]!, at[m.index + m[0].length - 1]! + 1]);
  };
  for (const pattern of PREFIXED) scan(pattern);
  scan(LONG_RUN, random);
  scan(HEX_RUN, randomHex);
  for (const pattern of CARDS) scan(pattern, card);
  return mergeRanges(found);
}

/** Ranges of text, [start, end), in order and with those that touch or overlap made one. */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const range of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** `text` with each range, [start, end) in order, replaced by `marker`. */
export function withMarkers(text: string, ranges: [number, number][], marker: string): string {
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    out += text.slice(at, start) + marker;
    at = end;
  }
  return out + text.slice(at);
}

/** Whether any part of `text` looks like a credential or a card number. */
export const holdsCredential = (text: string): boolean => credentialRanges(text).length > 0;

// What a field asks for when its name says it takes a one-time code, a PIN or a card's security code
// (a compound ending in "code": "Sicherheitscode", "Bestätigungscode"; "код", "コード", "验证码"), but
// not a code nobody keeps secret (a postal code, a promotion code) nor one that is a notation
// (LibreOffice's number "Format Code", a formula's, a page's HTML, an error's).
const CODE_FIELD =
  /(?<!\p{L})(?:otp|pin|cvv2?|cvc2?|csc|tan|2fa|mfa|passcode|one[- ]?time)(?!\p{L})|(?:code|código|codice|kod|kód|kode|koodi|kodu|код[а-яё]{0,2})(?!\p{L})|コード|验证码|驗證碼|校验码|暗証番号|인증\s?번호|인증\s?코드/iu;
const PUBLIC_CODE =
  /\b(?:zip|postal|post|postcode|area|country|promo|promotion|coupon|discount|voucher|gift|referral|source|language|currency|product|item|colou?r|tracking|invite|invitation|qr|bar|format|formula|html|css|hex|style|error|status|exit|response|snippet|example|sample|airport|region|dialing|dialling|calling|sku)\s*-?code|\bpostcode\b|\bsource code\b/iu;

/** Whether a field's name or description says what is typed into it is a code to keep secret. */
export const secretField = (...words: (string | undefined)[]): boolean =>
  words.some((w) => w !== undefined && CODE_FIELD.test(w) && !PUBLIC_CODE.test(w));
