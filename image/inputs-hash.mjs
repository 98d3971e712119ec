// The hashes of what the image holds and of what its job tests, each file's path and content in
// name order. `content` names the image's tag (a rebuild only where deskhand or the image changed);
// `job` is what docs/ledger/image.json records after a passing run of the image job (.ci/image), so
// that the job runs again only where the image's own inputs changed.
//   node image/inputs-hash.mjs content|job
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const INPUTS = {
  job: ["image", "test/image", "package.json", "package-lock.json"],
  content: ["image", "src", "data", "package.json", "package-lock.json"],
};

const every = (path) =>
  !existsSync(path) || statSync(path).isFile()
    ? [path]
    : readdirSync(path, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath ?? e.path, e.name));

export function imageHash(kind) {
  const hash = createHash("sha256");
  for (const file of INPUTS[kind].flatMap(every).sort())
    hash.update(file).update(existsSync(file) ? readFileSync(file) : "");
  return hash.digest("hex");
}

if (process.argv[1]?.endsWith("inputs-hash.mjs")) {
  const kind = process.argv[2] ?? "content";
  if (!(kind in INPUTS)) {
    console.error("usage: node image/inputs-hash.mjs content|job");
    process.exit(2);
  }
  console.log(imageHash(kind).slice(0, kind === "content" ? 16 : 64));
}
