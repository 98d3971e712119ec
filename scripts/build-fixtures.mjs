// Compiles the test fixtures (the Swing app) into build/fixtures. Skips the work when up to date.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";

const source = "test/fixtures/swing/DeskhandFixture.java";
const output = "build/fixtures/DeskhandFixture.class";
if (existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) process.exit(0);
mkdirSync("build/fixtures", { recursive: true });
// JAVA_TOOL_OPTIONS may carry the ATK wrapper for the sandbox; javac does not need it.
const env = { ...process.env };
delete env.JAVA_TOOL_OPTIONS;
execFileSync("javac", ["-d", "build/fixtures", source], { stdio: "inherit", env });
console.log(`built ${output}`);
