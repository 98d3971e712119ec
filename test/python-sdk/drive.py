"""One client configuration of docs/clients.md, driven through the official Python MCP SDK.

Given a launch as JSON (argv[1]: {"command", "args"} for stdio, {"url", "headers"} for Streamable
HTTP) and the Swing fixture's title (argv[2]), it starts or reaches deskhand as a stock client does
(stdio: the SDK's own default environment, nothing of the desktop's), lists the tools, presses Alpha,
presses Save (which deskhand asks the person about: the elicitation is accepted here), and prints
what it saw as one JSON line: the status label's text after each press and the questions asked.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def scenario(session: ClientSession, title: str, asked: list[str]) -> dict:
    await session.initialize()
    tools = [tool.name for tool in (await session.list_tools()).tools]
    target = {"kind": "title", "glob": title}

    async def call(name: str, arguments: dict) -> types.CallToolResult:
        result = await session.call_tool(name, arguments)
        if result.is_error:
            raise RuntimeError(f"{name}: {result.content[0].text}")
        return result

    async def ref(role: str, **query) -> str:
        found = await call("find", {"target": target, "role": role, **query})
        return found.structured_content["matches"][0]["ref"]

    async def status() -> str:
        info = await call("element_info", {"ref": await ref("label", name="Status")})
        return info.structured_content["description"]

    windows = await call("windows", {})
    await call("act", {"ref": await ref("push button", name_contains="Alpha"), "action": {"kind": "invoke"}})
    await asyncio.sleep(0.3)
    after_alpha = await status()
    saved = await call("click", {"ref": await ref("push button", name="Save"), "intent": "Save the document"})
    await asyncio.sleep(0.3)
    return {
        "tools": len(tools),
        "window_listed": title in windows.content[0].text,
        "after_alpha": after_alpha,
        "save_status": saved.structured_content.get("status"),
        "confirmed_by": saved.structured_content.get("confirmed_by"),
        "after_save": await status(),
        "asked": asked,
    }


async def main() -> None:
    launch, title = json.loads(sys.argv[1]), sys.argv[2]
    asked: list[str] = []

    async def elicit(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"allow": True})

    if "command" in launch:
        server = StdioServerParameters(command=launch["command"], args=launch.get("args", []))
        streams = stdio_client(server)
    else:
        http = create_mcp_http_client(headers=launch.get("headers", {}))
        streams = streamable_http_client(launch["url"], http_client=http)
    async with streams as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit) as session:
            print(json.dumps(await scenario(session, title, asked)))


asyncio.run(main())
