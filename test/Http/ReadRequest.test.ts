import { describe, expect, test } from "bun:test"
import { Effect, Exit } from "effect"
import { HttpServerError, HttpServerRequest } from "effect/http"
import { ReadRequest } from "../../src/Http/ReadRequest.ts"

const read = (body: string) =>
  new ReadRequest(HttpServerRequest.fromWeb(new Request("http://localhost/", { method: "POST", body })), body)

describe("a request whose body is already read", () => {
  test("gives the text it was read with, and its JSON", () => {
    expect(Effect.runSync(read('{"a":1}').text)).toBe('{"a":1}')
    expect(Effect.runSync(read('{"a":1}').json)).toEqual({ a: 1 })
  })

  test("a body that is not JSON fails as the framework's own read fails, not as a defect", () => {
    const exit = Effect.runSyncExit(read("{").json)
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
    expect(error?._tag).toBe("Fail")
    expect(error?._tag === "Fail" && HttpServerError.isHttpServerError(error.error)).toBe(true)
  })
})
