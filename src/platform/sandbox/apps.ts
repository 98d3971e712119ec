// Starting apps inside a desktop and waiting, with a bound, until each has registered on the AT-SPI bus
// with at least one window: before that, a snapshot would find nothing and say so.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { registeredApplications } from "../atspi/bus.js";
import { IFACE } from "../atspi/names.js";
import { connectionPid, DBusConnection } from "../dbus.js";
import type { Desktop } from "./desktop.js";
import { isDescendant, type StartedProcess } from "./processes.js";

class AppNotRegistered extends Error {
  override readonly name = "AppNotRegistered";
  constructor(
    readonly command: string,
    readonly reason: string,
    readonly logTail: string,
  ) {
    super(`app ${JSON.stringify(command)} ${reason}${logTail ? `\n--- its output ---\n${logTail}` : ""}`);
  }
}

export interface LaunchedApp {
  command: string;
  process: StartedProcess;
  /** The pid that registered on the bus: the launched one or a descendant (soffice.bin under soffice). */
  registeredPid: number;
  busName: string;
}

async function logTail(desktop: Desktop, label: string): Promise<string> {
  try {
    const text = await readFile(join(desktop.logDir, `${label}.log`), "utf8");
    return text.split("\n").slice(-12).join("\n").trim();
  } catch {
    return "";
  }
}

export async function launchApp(desktop: Desktop, command: string, timeoutMs = 30_000): Promise<LaunchedApp> {
  const label = `app-${command.replace(/[^\w.-]+/g, "_").slice(0, 40)}`;
  const started = desktop.spawn(label, "sh", ["-c", `exec ${command}`]);
  const a11y = await DBusConnection.open(desktop.info.accessibilityBusAddress, { timeoutMs: 2000 });
  const pids = new Map<string, number | null>();
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (started.exited) {
        throw new AppNotRegistered(
          command,
          `exited (status ${started.exitCode}) before it registered on the accessibility bus`,
          await logTail(desktop, label),
        );
      }
      const apps = await registeredApplications(a11y, 2000).catch(() => []);
      for (const app of apps) {
        if (!pids.has(app.bus)) pids.set(app.bus, await connectionPid(a11y, app.bus, 2000).catch(() => null));
        const pid = pids.get(app.bus);
        if (pid == null || !(await isDescendant(pid, started.pid))) continue;
        const [count] = await a11y
          .call(
            {
              destination: app.bus,
              path: app.path,
              iface: IFACE.properties,
              member: "Get",
              signature: "ss",
              body: [IFACE.accessible, "ChildCount"],
            },
            2000,
          )
          .catch(() => [undefined]);
        const childCount = Array.isArray(count) ? Number((count[1] as unknown[])[0]) : 0;
        if (childCount > 0) return { command, process: started, registeredPid: pid, busName: app.bus };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new AppNotRegistered(
      command,
      `did not register a window on the accessibility bus within ${timeoutMs} ms; its toolkit may need accessibility switched on (see \`deskhand doctor\`)`,
      await logTail(desktop, label),
    );
  } finally {
    a11y.close();
  }
}
