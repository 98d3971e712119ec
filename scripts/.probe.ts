import { callTool } from "../src/tools/call.js";
import { createContext } from "../src/tools/context.js";
import { toolNamed } from "../src/tools/registry.js";
const context = createContext({ refLifetime: "while-verified" });
const target = { kind: "title", glob: process.argv[2] ?? "t1*" };
const call = async (t: any, input: any) => { const r = await callTool(context, toolNamed(t), input); return r.ok ? r.output : { text: "ERROR " + r.error.message, data: {} as any }; };
const steps = JSON.parse(process.argv[3] ?? "[]");
for (const [tool, input] of steps) {
  const withTarget = JSON.parse(JSON.stringify(input).replaceAll('"TARGET"', JSON.stringify(target)).replaceAll('"REF"', JSON.stringify((globalThis as any).ref ?? "")));
  const out = await call(tool, withTarget);
  if ((out.data as any)?.matches?.[0]?.ref) (globalThis as any).ref = (out.data as any).matches[0].ref;
  console.log(`== ${tool}\n${out.text.slice(0, 3000)}`);
}
await context.close();
