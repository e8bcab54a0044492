// Writes the page's protocol types (TypeScript) from the server's JSON schema, read on
// standard input (python -m necropolis.server.schema), to standard output. Run through
// scripts/protocol_types, which writes src/lib/protocol.ts or checks that it is current.
import { compile } from "json-schema-to-typescript";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const schema = JSON.parse(text);
// Values the page's code reads (the protocol's version, the registries' names).
const constants = schema.constants;
delete schema.constants;
// A type is named after its definition only: the titles pydantic gives each field
// ("Acting Seats") would each become a type of their own.
function untitled(node) {
  if (Array.isArray(node)) return node.map(untitled);
  if (node === null || typeof node !== "object") return node;
  // A reference with words beside it (a field's default) would become a copy of its type.
  if (typeof node.$ref === "string") return { $ref: node.$ref };
  return Object.fromEntries(Object.entries(node).filter(([key, value]) => key !== "title" || typeof value !== "string").map(([key, value]) => [key, untitled(value)]));
}
for (const [name, definition] of Object.entries(schema.definitions)) schema.definitions[name] = { ...untitled(definition), title: name };
// Every definition becomes a named type; the root, which only holds them, is left out.
schema.type = "object";
schema.additionalProperties = false;

const banner = `/**
 * The table protocol's types (docs/protocol.md): every HTTP body and WebSocket message, and
 * the registries' names (levels, game ids), generated from the server's pydantic models.
 *
 * DO NOT EDIT: edit the models (src/necropolis/server/models.py, a route's), then run
 * scripts/protocol_types, which writes this file; ./test checks that it is current.
 */`;
const typed = await compile(schema, "Protocol", { bannerComment: banner, additionalProperties: false, unreachableDefinitions: true, ignoreMinAndMaxItems: true, strictIndexSignatures: false, format: true, style: { printWidth: 120 } });
process.stdout.write(
  typed
    .replace(/export interface Protocol \{\}\n/, "")
    .replace(/\n \*\n \* This interface was referenced by `Protocol`'s JSON-Schema\n \* via the `definition` "\w+"\./g, "")
    .replace(/\/\*\*\n \* This interface was referenced by `Protocol`'s JSON-Schema\n \* via the `definition` "\w+"\.\n \*\/\n/g, "") +
    Object.entries(constants)
      .map(([name, { value, description }]) => `\n/** ${description} */\nexport const ${name} = ${JSON.stringify(value)} as const;\n`)
      .join(""),
);
