// One deskhand sends input to a Wayland session at a time: the equivalent of the X11 selection lock.
// Each deskhand's virtual keyboard and pointer are its own devices, but the seat merges them, so two
// typing at once would interleave their keys, and a move of one during another's click would misplace
// the press. The lock is a listening socket in the abstract namespace (Linux): binding the name is
// taking the lock, and the kernel frees it the moment its owner dies, even by SIGKILL, so a killed
// deskhand never leaves the session locked.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MS = 10;

/** The lock's abstract socket name for the Wayland display socket at `path`. */
export function lockName(path: string): string {
  return `\0deskhand-input-${createHash("sha256").update(path).digest("hex").slice(0, 32)}`;
}

function tryBind(name: string): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      server.close();
      if (error.code === "EADDRINUSE") resolve(undefined);
      else reject(error);
    });
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/**
 * Takes the lock, waiting up to `waitMs` for another deskhand to let it go; throws, having sent
 * nothing, if it does not. The returned function lets it go.
 */
export async function takeInputLock(name: string, waitMs: number, display: string): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const server = await tryBind(name);
    if (server) return () => server.close();
    if (Date.now() > deadline)
      throw new Error(
        `another deskhand has held the input lock on ${display} for ${Math.round(waitMs / 1000)} s; nothing more was sent`,
      );
    await sleep(POLL_MS);
  }
}
