// Well-known AT-SPI bus names, object paths and interfaces.
export const A11Y_BUS_NAME = "org.a11y.Bus";
export const A11Y_BUS_PATH = "/org/a11y/bus";
export const A11Y_BUS_IFACE = "org.a11y.Bus";
export const A11Y_STATUS_IFACE = "org.a11y.Status";

export const REGISTRY_NAME = "org.a11y.atspi.Registry";
export const REGISTRY_ROOT_PATH = "/org/a11y/atspi/accessible/root";
export const REGISTRY_PATH = "/org/a11y/atspi/registry";
export const REGISTRY_IFACE = "org.a11y.atspi.Registry";

export const CACHE_PATH = "/org/a11y/atspi/cache";
export const NULL_PATH = "/org/a11y/atspi/null";

export const IFACE = {
  accessible: "org.a11y.atspi.Accessible",
  application: "org.a11y.atspi.Application",
  action: "org.a11y.atspi.Action",
  cache: "org.a11y.atspi.Cache",
  component: "org.a11y.atspi.Component",
  text: "org.a11y.atspi.Text",
  editableText: "org.a11y.atspi.EditableText",
  value: "org.a11y.atspi.Value",
  table: "org.a11y.atspi.Table",
  tableCell: "org.a11y.atspi.TableCell",
  selection: "org.a11y.atspi.Selection",
  collection: "org.a11y.atspi.Collection",
  properties: "org.freedesktop.DBus.Properties",
  dbus: "org.freedesktop.DBus",
} as const;

export const DBUS_NAME = "org.freedesktop.DBus";
export const DBUS_PATH = "/org/freedesktop/DBus";

/** Coordinate types of Component.GetExtents. */
export const COORD_SCREEN = 0;
