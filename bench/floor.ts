/**
 * The framework's floor (`bench/floorApp.ts`: a minimal Effect HttpApi with the service's endpoints, schemas and
 * tools, and no feature) on `Bun.serve` through the framework's own web handler (`HttpRouter.toWebHandler`, its
 * logger off). Environment: PORT, HOST, UA_CACHE_SIZE.
 */
import { HttpRouter } from "effect/http"
import { FloorApp } from "./floorApp.ts"

const { handler } = HttpRouter.toWebHandler(FloorApp, { disableLogger: true })

const server = Bun.serve({
  hostname: process.env.HOST ?? "0.0.0.0",
  port: Number(process.env.PORT ?? 3000),
  // as the service: Bun's own cap would answer an empty 413 before the app
  maxRequestBodySize: 1 << 30,
  fetch: (request) => handler(request)
})

const stop = () => void server.stop().then(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
