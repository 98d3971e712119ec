// Files other processes read while this one writes them (a sandbox's state, a recording, a cache):
// each is written whole to a temporary in the same folder, forced to disk, then renamed over the old
// one, so a reader sees the old file or the new one, never a part.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";

const temporaryOf = (path: string) => `${path}.${process.pid}.tmp`;

export async function writeWhole(path: string, text: string, mode = 0o600): Promise<void> {
  const temporary = temporaryOf(path);
  try {
    const file = await open(temporary, "w", mode);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function writeWholeSync(path: string, text: string, mode = 0o600): void {
  const temporary = temporaryOf(path);
  try {
    const fd = openSync(temporary, "w", mode);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
