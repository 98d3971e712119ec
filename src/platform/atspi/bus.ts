// Finding and opening the accessibility bus: org.a11y.Bus.GetAddress on the session bus, the AT_SPI_BUS
// property on the X root window as the fallback that Qt and libatspi also read.

import { DBusConnection } from "../dbus.js";
import { BackendUnavailable } from "../types.js";
import {
  A11Y_BUS_IFACE,
  A11Y_BUS_NAME,
  A11Y_BUS_PATH,
  A11Y_STATUS_IFACE,
  IFACE,
  REGISTRY_NAME,
  REGISTRY_ROOT_PATH,
} from "./names.js";

class AccessibilityBusUnavailable extends BackendUnavailable {}

export async function openSessionBus(
  address: string | undefined,
  timeoutMs: number,
): Promise<DBusConnection> {
  if (!address) {
    throw new AccessibilityBusUnavailable(
      "DBUS_SESSION_BUS_ADDRESS is not set: there is no session bus to ask for the accessibility bus. " +
        "Run inside `deskhand sandbox run -- …`, or start a desktop session.",
    );
  }
  return DBusConnection.open(address, { timeoutMs });
}

export async function getAccessibilityBusAddress(
  session: DBusConnection,
  timeoutMs: number,
): Promise<string> {
  const [address] = await session.call(
    { destination: A11Y_BUS_NAME, path: A11Y_BUS_PATH, iface: A11Y_BUS_IFACE, member: "GetAddress" },
    timeoutMs,
  );
  return String(address);
}

export async function enableAccessibility(session: DBusConnection, timeoutMs: number): Promise<void> {
  for (const property of ["IsEnabled", "ScreenReaderEnabled"]) {
    await session.call(
      {
        destination: A11Y_BUS_NAME,
        path: A11Y_BUS_PATH,
        iface: IFACE.properties,
        member: "Set",
        signature: "ssv",
        body: [A11Y_STATUS_IFACE, property, ["b", true]],
      },
      timeoutMs,
    );
  }
}

/** The applications registered on the accessibility bus, as (bus name, root path) pairs. */
export async function registeredApplications(
  a11y: DBusConnection,
  timeoutMs: number,
): Promise<{ bus: string; path: string }[]> {
  const [children] = await a11y.call(
    { destination: REGISTRY_NAME, path: REGISTRY_ROOT_PATH, iface: IFACE.accessible, member: "GetChildren" },
    timeoutMs,
  );
  return (children as [string, string][]).map(([bus, path]) => ({ bus, path }));
}
