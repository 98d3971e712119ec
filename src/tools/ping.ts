import { z } from "zod";
import { defineTool, READ_ONLY } from "./tool.js";

export const PROTOCOL_VERSION = 1;

export const pingTool = defineTool({
  name: "ping",
  group: "read",
  title: "Ping",
  description: "deskhand's version, protocol and current snapshot id.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({}),
  async handler(context) {
    const data = {
      version: context.version,
      protocolVersion: PROTOCOL_VERSION,
      snapshotId: context.refs.currentSnapshotId,
    };
    return {
      data,
      text: `deskhand ${data.version}, protocol ${data.protocolVersion}, snapshot ${data.snapshotId ?? "none"}`,
    };
  },
});
