import { AtspiBackend } from "./src/platform/atspi/backend.js";
import { roleName } from "./src/platform/atspi/roles.js";
import { statesFromBitset } from "./src/platform/atspi/states.js";
const b = await AtspiBackend.connect();
for (const app of await b.applications()) {
  if (app.pid === null) continue;
  const [children] = await app.call(app.rootPath, "org.a11y.atspi.Accessible", "GetChildren", 2000);
  for (const [, path] of children as [string, string][]) {
    const [[role], [states]] = await Promise.all([app.call(path, "org.a11y.atspi.Accessible", "GetRole", 2000), app.call(path, "org.a11y.atspi.Accessible", "GetState", 2000)]);
    const name = await app.property(path, "org.a11y.atspi.Accessible", "Name", 2000);
    console.log(app.name, app.pid, roleName(Number(role)), JSON.stringify(name), statesFromBitset(states as number[]).join(","));
  }
}
await b.close();
