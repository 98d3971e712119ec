// The tool catalog an MCP client lists: what every conversation pays for before its first call. The
// schemas are the registry's zod schemas as JSON Schema, made compact: bounds, lengths and patterns
// are left to the server (every call is validated against the full zod schema, and a refusal names
// the field and what to do), and a union of objects told apart by one constant field (a target's
// `kind`, a point's `space`) is listed as one object whose description says which fields go with
// which kind. What a model needs to choose and call a tool stays: types, enums, defaults, required
// fields and descriptions.
import { z } from "zod";
import { annotationsOf, levelRange, type ToolDefinition } from "../../tools/tool.js";

type Schema = Record<string, unknown>;

/** Keywords that only bound what the server checks anyway. */
const LEFT_TO_THE_SERVER = new Set([
  "$schema",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
]);

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Objects that each hold one field (`{id} | {title} | {pid}`), as `{id}|{title}|{pid}`. */
function oneFieldChoices(schema: unknown): string | undefined {
  // Compacted already (oneFieldOf): its description ends by listing them.
  const listed =
    isSchema(schema) && typeof schema.description === "string"
      ? /\{\w+\}(?:, \{\w+\})* or \{\w+\}$/.exec(schema.description)
      : null;
  if (listed) return listed[0].replace(/, | or /g, "|");
  const variants = isSchema(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  const keys = variants?.map((v) =>
    isSchema(v) && isSchema(v.properties) && Object.keys(v.properties).length === 1
      ? Object.keys(v.properties)[0]
      : undefined,
  );
  return keys?.every((k) => k !== undefined) ? keys.map((k) => `{${k}}`).join("|") : undefined;
}

/** A field as a description names it: `id`, `state?`, `button?: left|middle|right`, `window: {id}|{title}`. */
function field(key: string, schema: unknown, required: boolean): string {
  // A short choice is spelled out; a long one (scroll amounts) is in the server's refusal if wrong.
  const choices =
    isSchema(schema) && Array.isArray(schema.enum) && schema.enum.length <= 4
      ? schema.enum.join("|")
      : oneFieldChoices(schema);
  return `${key}${required ? "" : "?"}${choices ? `: ${choices}` : ""}`;
}

/**
 * A union of objects told apart by one field holding a constant: one object with that field as an
 * enum, and a description that says, kind by kind, which fields go with it and of what type.
 */
function mergeTagged(variants: unknown[], siblings: Siblings): Schema | undefined {
  if (variants.length < 2 || !variants.every((v) => isSchema(v) && isSchema(v.properties))) return undefined;
  const objects = variants as (Schema & { properties: Record<string, Schema>; required?: string[] })[];
  const tag = Object.keys(objects[0]!.properties).find((key) =>
    objects.every((o) => isSchema(o.properties[key]) && "const" in o.properties[key]),
  );
  if (!tag) return undefined;
  const kinds = objects.map((o) => {
    const required = new Set(o.required ?? []);
    const own = Object.entries(o.properties).filter(([key]) => key !== tag);
    // Many fields that are another tool's arguments (wait's element: find's) are named as that tool's.
    const same =
      own.length > NESTED_FIELDS_LISTED
        ? siblings.find((t) => own.filter(([key]) => !t.fields.has(key)).length <= 2)
        : undefined;
    const fields = same
      ? [
          `${same.name}'s arguments`,
          ...own
            .filter(([key]) => !same.fields.has(key))
            .map(([key, value]) => field(key, value, required.has(key))),
        ]
      : own.map(([key, value]) => field(key, value, required.has(key)));
    const with_ = fields.length > 0 ? ` {${fields.join(", ")}}` : "";
    return `${String(o.properties[tag]!.const)}${with_}${o.description ? ` (${String(o.description)})` : ""}`;
  });
  return {
    type: "object",
    properties: { [tag]: { enum: objects.map((o) => o.properties[tag]!.const) } },
    required: [tag],
    description: kinds.join("; "),
  };
}

/** A union of constants (`1 | 2`) as an enum. */
function constants(variants: unknown[]): Schema | undefined {
  if (!variants.every((v) => isSchema(v) && "const" in v && Object.keys(v).length === 1)) return undefined;
  return { enum: variants.map((v) => (v as Schema).const) };
}

/** A union of objects that each need one field of their own (`{id} | {title} | {pid}`): one object. */
function oneFieldOf(variants: unknown[]): Schema | undefined {
  const objects = variants.filter(isSchema);
  if (objects.length !== variants.length || objects.length < 2) return undefined;
  const fields = objects.map((o) => {
    const required = o.required as string[] | undefined;
    const properties = o.properties as Record<string, Schema> | undefined;
    return required?.length === 1 && properties && Object.keys(properties).length === 1
      ? { key: required[0]!, schema: properties[required[0]!]! }
      : undefined;
  });
  if (fields.some((f) => !f) || new Set(fields.map((f) => f!.key)).size !== fields.length) return undefined;
  const keys = fields.map((f) => `{${f!.key}}`);
  return { type: "object", description: `${keys.slice(0, -1).join(", ")} or ${keys.at(-1)}` };
}

/** Past this many fields, a nested object is listed by its field names (its tool lists their meaning). */
const NESTED_FIELDS_LISTED = 8;

/** The tools of one catalog, by the names of their arguments: a nested object may be "as find's". */
type Siblings = readonly { name: string; fields: ReadonlySet<string> }[];

/**
 * An object inside an argument with many fields of its own (act's `find`): "as find's arguments"
 * when a tool of the same catalog takes them all, else its field names.
 */
function namesOnly(schema: Schema, siblings: Siblings): Schema | undefined {
  const properties = isSchema(schema.properties) ? Object.keys(schema.properties) : [];
  if (properties.length <= NESTED_FIELDS_LISTED) return undefined;
  const said = typeof schema.description === "string" ? `${schema.description}. ` : "";
  const same = siblings.find((t) => properties.every((p) => t.fields.has(p)));
  if (same) return { type: "object", description: `${said}As ${same.name}'s arguments` };
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = properties.map((k) => (required.has(k) ? k : `${k}?`)).join(", ");
  return { type: "object", description: `${said}Fields: ${names}` };
}

/** What a record's JSON Schema says that any JSON object is anyway: string keys, any values. */
function plainRecord(out: Schema): void {
  if (
    isSchema(out.propertyNames) &&
    out.propertyNames.type === "string" &&
    Object.keys(out.propertyNames).length === 1
  )
    delete out.propertyNames;
  if (isSchema(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0)
    delete out.additionalProperties;
}

function compactSchema(node: unknown, siblings: Siblings = []): unknown {
  if (Array.isArray(node)) return node.map((n) => compactSchema(n, siblings));
  if (!isSchema(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (LEFT_TO_THE_SERVER.has(key) || (key === "additionalProperties" && value === false)) continue;
    out[key] =
      key === "properties" && isSchema(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => {
              const field = compactSchema(v, siblings);
              return [k, (isSchema(field) && namesOnly(field, siblings)) || field];
            }),
          )
        : compactSchema(value, siblings);
  }
  plainRecord(out);
  if ("const" in out || "enum" in out) delete out.type;
  // An optional switch left out is off, and an optional list left out is empty: saying so adds nothing.
  if (out.default === false || (Array.isArray(out.default) && out.default.length === 0)) delete out.default;
  const union = out.oneOf ?? out.anyOf;
  const merged = Array.isArray(union)
    ? (constants(union) ?? mergeTagged(union, siblings) ?? oneFieldOf(union))
    : undefined;
  if (merged) {
    const { description, ...rest } = out;
    delete rest.oneOf;
    delete rest.anyOf;
    const said = [description, merged.description].filter(Boolean).join(". ");
    return { ...rest, ...merged, ...(said ? { description: said } : {}) };
  }
  return out;
}

/**
 * Arguments that tune how a call reads or waits, never what it does: listed by name and default in
 * the tool's description, not as schema, and still validated in full when given.
 */
const TUNING = new Set([
  "view",
  "include_changes",
  "maxDepth",
  "maxText",
  "tableRows",
  "timeoutMs",
  "timeoutMsRead",
  "timeout_ms",
  "waitMs",
  "settleMs",
  "poll_ms",
  "walkTables",
  "actions",
  "accessibleIds",
  "bounds",
  "ensure_focus",
  "raise",
  "maxChars",
  "maxTargets",
  "max_cells",
  "max_width",
]);

/** Object schemas listed by earlier tools of a catalog, by their shape: what they said, and where. */
type Listed = { shape: string; description: string; where: string }[];

/**
 * An argument whose object schema repeats one listed before it: "As from" in the same tool (drag's
 * `to`), "As snapshot's target" in a later tool of the same catalog.
 */
function foldRepeats(schema: Schema, tool: string, earlier: Listed): Schema {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const kept: Schema = {};
  for (const [key, value] of Object.entries(properties)) {
    if (!isSchema(value) || value.type !== "object" || JSON.stringify(value).length <= 60) {
      kept[key] = value;
      continue;
    }
    const { description, ...rest } = value;
    const own = typeof description === "string" ? description : "";
    const shape = JSON.stringify(rest);
    // The same, or the same with a sentence of its own in front ("The window of fields given by label.").
    const first = earlier.find(
      (e) => e.shape === shape && (own === e.description || own.endsWith(`. ${e.description}`)),
    );
    if (!first) {
      earlier.push({ shape, description: own, where: `${tool}'s ${key}` });
      kept[key] = value;
      continue;
    }
    const added = own.slice(0, own.length - first.description.length);
    const where = first.where.startsWith(`${tool}'s `) ? first.where.slice(tool.length + 3) : first.where;
    // "As snapshot's target" says that it is an object, and which.
    kept[key] = { description: `${added}As ${where}` };
  }
  return { ...schema, properties: kept };
}

/** A tool's input schema with its tuning arguments taken out, and those arguments as `name=default`. */
function foldTuning(schema: Schema): { schema: Schema; folded: string[] } {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const folded: string[] = [];
  const kept: Schema = {};
  for (const [key, value] of Object.entries(properties)) {
    // A required argument, and a choice (snapshot's own `view`: screen|full), stay with their schema.
    const choice = isSchema(value) && Array.isArray(value.enum);
    if (!TUNING.has(key) || choice || (Array.isArray(schema.required) && schema.required.includes(key)))
      kept[key] = value;
    else if (isSchema(value) && "default" in value) folded.push(`${key}=${JSON.stringify(value.default)}`);
    else folded.push(isSchema(value) && value.type === "boolean" ? `${key}=false` : key);
  }
  return { schema: { ...schema, properties: kept }, folded };
}

/** MCP's defaults for the hints (a tool may change things, destructively, not idempotently, in an open world). */
const HINT_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The hints: whether it reads only is always said, and for a tool that does not, whether it can
 * destroy (a client that does not apply MCP's defaults must not take a missing one as "safe");
 * whether it is idempotent only for a tool that changes things (MCP: it means nothing otherwise);
 * the open world only where it differs from the default.
 */
function hints(tool: ToolDefinition): Partial<typeof HINT_DEFAULTS> {
  const all = annotationsOf(tool);
  return Object.fromEntries(
    Object.entries(all).filter(([key, value]) =>
      key === "readOnlyHint"
        ? true
        : key === "destructiveHint"
          ? !all.readOnlyHint
          : key === "idempotentHint"
            ? !all.readOnlyHint && value !== HINT_DEFAULTS.idempotentHint
            : value !== HINT_DEFAULTS[key as keyof typeof HINT_DEFAULTS],
    ),
  );
}

/**
 * An argument described as an earlier tool of the catalog described its namesake ("intent": "Why
 * (journaled)") is listed bare: the catalog is read whole, and says it once.
 */
function sayOnce(schema: Schema, said: Set<string>): Schema {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const kept: Schema = {};
  for (const [key, value] of Object.entries(properties)) {
    // Only a value's meaning goes: an object's description says its shape, and stays.
    const plain = isSchema(value) && value.type !== "object" && ("type" in value || "enum" in value);
    const described = plain && typeof value.description === "string" ? value.description : undefined;
    const known = described !== undefined ? `${key}\u0000${described}` : undefined;
    if (known && said.has(known)) {
      const { description: _, ...bare } = value as Schema;
      kept[key] = bare;
    } else kept[key] = value;
    if (known) said.add(known);
  }
  return { ...schema, properties: kept };
}

/**
 * One tool as tools/list shows it. `asDeclared`: the schema exactly as declared, for a seed
 * profile, whose tools reproduce another system's own list.
 */
function catalogEntry(
  tool: ToolDefinition,
  asDeclared = false,
  siblings: Siblings = [],
  /** Object schemas listed by earlier tools of the catalog, and where. */
  earlier: Listed = [],
  /** Arguments' descriptions said by earlier tools of the catalog (`sayOnce`). */
  described = new Set<string>(),
) {
  const declared = z.toJSONSchema(tool.input, { io: "input" }) as Schema;
  if (asDeclared)
    return {
      name: tool.name,
      title: tool.title,
      description: `${tool.description} (level ${levelRange(tool)})`,
      inputSchema: declared as { type: "object" },
      annotations: annotationsOf(tool),
    };
  const others = siblings.filter((t) => t.name !== tool.name);
  const { schema, folded } = foldTuning(
    sayOnce(foldRepeats(compactSchema(declared, others) as Schema, tool.name, earlier), described),
  );
  const off = folded.filter((f) => f.endsWith("=false")).map((f) => f.slice(0, -"=false".length));
  const rest = folded.filter((f) => !f.endsWith("=false"));
  const said = [...rest, ...(off.length > 0 ? [`off: ${off.join(", ")}`] : [])];
  // Arguments left out of the schema to keep the catalog short: still taken, with these defaults.
  const tuning = said.length > 0 ? ` Optional: ${said.join(", ")}.` : "";
  // No title: a client shows the name where there is none, and an agent needs none.
  return {
    name: tool.name,
    description: `${tool.description}${tuning} (level ${levelRange(tool)})`,
    inputSchema: schema as { type: "object" },
    annotations: hints(tool),
  };
}

export function catalog(tools: readonly ToolDefinition[], asDeclared = false) {
  const siblings = tools.map((t) => ({ name: t.name, fields: new Set(Object.keys(t.input.shape)) }));
  const earlier: Listed = [];
  const said = new Set<string>();
  return tools.map((tool) => catalogEntry(tool, asDeclared, siblings, earlier, said));
}
