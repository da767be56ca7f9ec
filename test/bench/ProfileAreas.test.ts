import { describe, expect, test } from "bun:test"
import { areaOf } from "../../bench/profileAreas.ts"

const effect = "/root/.bun/install/cache/effect@4.1.0@@@1/dist"

describe("bench/profileAreas: the area of a profile sample", () => {
  test("a project frame is its module", () => {
    expect(areaOf(["checkBody src/Http/Body.ts:90", `runLoop ${effect}/internal/effect.js:453`])).toBe(
      "project: src/Http/Body.ts"
    )
  })

  test("Effect's frames by the part of the framework they are in", () => {
    expect(areaOf([`runLoop ${effect}/internal/effect.js:453`])).toBe("effect: runtime (fibers, run loop, Context)")
    expect(areaOf([`(anonymous) effect/dist/internal/schema/interpreter.js:155`])).toBe("effect: Schema decode/encode")
    expect(areaOf([`handler ${effect}/http/HttpEffect.js:291`])).toBe(
      "effect: HTTP (web handler, request/response, headers)"
    )
    expect(areaOf([`(anonymous) effect/dist/http-api/HttpApiBuilder.js:420`])).toMatch(/^effect: HttpApi/)
  })

  test("a native frame is JSON or a web object, else its JavaScript caller's", () => {
    expect(areaOf(["stringify [native]", "(anonymous) src/Observability/Logger.ts:35"])).toBe(
      "JSON.parse / JSON.stringify"
    )
    expect(areaOf(["Headers [native]", `make ${effect}/http/Headers.js:82`])).toMatch(/^Bun web objects/)
    expect(areaOf(["exec [native]", "detectBot src/Tools/UserAgent/UserAgentBots.ts:70"])).toBe(
      "project: src/Tools/UserAgent/UserAgentBots.ts"
    )
  })

  test("what the load generator does is not the service's", () => {
    expect(areaOf(["Request [native]", "(anonymous) bench/inprocess.ts:36"])).toMatch(/^harness/)
  })

  test("a sample with no JavaScript on its stack", () => {
    expect(areaOf(["(garbage collector) [native]", "(root) [native]"])).toBe("outside JavaScript (GC, idle, native)")
  })
})
