// GET /: what the service is and where to go; a page, not a redirect, so its relative links work under a path prefix.
import { HttpRouter, HttpServerResponse } from "effect/http"
import { FAVICON } from "./Documents.ts"
import { HOME_PATH } from "./Routes.ts"

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tools API</title>
<link rel="icon" href="${FAVICON}">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2b24}
a{color:#2f6f4f}code{background:#eef3f0;padding:0 .25rem;border-radius:3px}</style>
</head>
<body>
<h1>Tools API</h1>
<p>A user-agent parser and generator, and a wage estimator, as JSON over HTTP.
Calls to <code>/v1/tools/…</code> need an API key: <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<ul>
<li><a href="docs">API reference</a>: every endpoint, with examples you can send from the page</li>
<li><a href="openapi.json">OpenAPI document</a>: to generate a client</li>
<li><a href="health">Health</a></li>
</ul>
</body>
</html>
`

export const HomeRoute = HttpRouter.add(
  "GET",
  HOME_PATH,
  HttpServerResponse.text(PAGE, { contentType: "text/html; charset=utf-8" })
)
