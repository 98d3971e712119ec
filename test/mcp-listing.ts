// The tool list an MCP client receives from deskhand's server, over an in-memory transport: what the
// catalog and listing tests pin and bench/catalog.ts measures.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../src/frontends/mcp/server.js";
import type { Profile } from "../src/frontends/profiles/index.js";
import { createContext } from "../src/tools/context.js";

export async function listedTools(profile: Profile) {
  const context = createContext({ refLifetime: "while-verified" });
  const server = createMcpServer(context, profile);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "listing", version: "0" });
  await client.connect(clientSide);
  try {
    return await client.listTools();
  } finally {
    await client.close();
    await context.close();
  }
}
