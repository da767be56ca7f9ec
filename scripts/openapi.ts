/**
 * `bun scripts/openapi.ts [PATH]`: writes the OpenAPI document as /openapi.json serves it (servers from PUBLIC_URL,
 * default http://127.0.0.1:3000) to PATH or stdout, for the linters and the client generator (scripts/README.md).
 */
import { writeFileSync } from "node:fs"
import { OpenApi } from "effect/http-api"
import { ToolsApi } from "../src/Api.ts"

const document = { ...OpenApi.fromApi(ToolsApi), servers: [{ url: process.env.PUBLIC_URL ?? "http://127.0.0.1:3000" }] }
const text = `${JSON.stringify(document, null, 2)}\n`
const [path] = process.argv.slice(2)
if (path === undefined) process.stdout.write(text)
else writeFileSync(path, text)
