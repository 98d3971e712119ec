// Compiles the test fixtures (the Swing apps) into build/fixtures. Skips each one that is up to date.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";

for (const name of [
  "DeskhandFixture",
  "DeskhandEditor",
  "DeskhandCanvas",
  "DeskhandGate",
  "DeskhandBrokenTable",
]) {
  const source = `test/fixtures/swing/${name}.java`;
  const output = `build/fixtures/${name}.class`;
  if (existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) continue;
  mkdirSync("build/fixtures", { recursive: true });
  // JAVA_TOOL_OPTIONS may carry the ATK wrapper for the sandbox; javac does not need it.
  const env = { ...process.env };
  delete env.JAVA_TOOL_OPTIONS;
  execFileSync("javac", ["-d", "build/fixtures", source], { stdio: "inherit", env });
  console.log(`built ${output}`);
}
