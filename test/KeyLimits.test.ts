/**
 * Issue 38, a limit per key, through real processes in memory and over a real redis-server: a keys-file line gives a
 * key its own requests a minute and a name; the headers, the 429 and a batch's cost use that key's limit, keys
 * without one get RATE_LIMIT_PER_MINUTE, SIGHUP changes a limit without a restart, and the name (never the key)
 * shows on the request's log line and in /metrics. A bad line stops the start naming its line, never the key.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until } from "./support/Poll.ts"
import { runOnce, type Running, start } from "./support/Process.ts"
import { type RedisServer, startRedis } from "./support/Redis.ts"
import { CHROME_WINDOWS, UA_PATH, WAGE_PATH } from "./support/TestApp.ts"

// Real processes on a loaded machine: more than bun test's 5 s.
setDefaultTimeout(60_000)

const ACME = "acme-secret-key-0123456789"
const BATCHER = "batcher-secret-key-9876543"
const PLAIN = "plain-secret-key-555555555"
const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex")
// acme 3 a minute, batcher (given by its digest) 6, plain the default of 4
const FILE = `# customers\n${ACME}  limit=3 name=acme\nsha256:${sha256(BATCHER)} name=batcher limit=6\n${PLAIN}\n`
const DEFAULT = { RATE_LIMIT_PER_MINUTE: "4" }

const dir = mkdtempSync(join(tmpdir(), "tools-api-key-limits-"))
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const post = async (base: string, key: string, path: string, body: object) => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json = (await response.json()) as { error?: { message: string } }
  const header = (name: string) => response.headers.get(name)
  return {
    status: response.status,
    message: json.error?.message,
    limit: header("x-ratelimit-limit"),
    remaining: header("x-ratelimit-remaining"),
    policy: header("ratelimit-policy")
  }
}
const wage = (base: string, key: string) => post(base, key, WAGE_PATH, { hourlyWage: 20 })
const batch = (base: string, key: string, n: number) =>
  post(base, key, UA_PATH, { operation: "parse", userAgents: Array(n).fill(CHROME_WINDOWS) })

const stores: ReadonlyArray<readonly [string, () => Record<string, string>]> = [
  ["in memory", () => ({})],
  ["in Redis", () => ({ REDIS_URL: redis.url })]
]

for (const [store, env] of stores)
  describe(`a limit per key, ${store}`, () => {
    let keys = ""
    let running: Running
    beforeAll(async () => {
      keys = join(dir, `keys-${store.replace(/\W/g, "-")}.txt`)
      writeFileSync(keys, FILE)
      running = await start({ API_KEYS_FILE: keys, ...DEFAULT, ...env() })
    })
    afterAll(() => running?.stop())

    test("the headers and the 429 use the key's own limit; a key without one gets RATE_LIMIT_PER_MINUTE", async () => {
      const acme = [await wage(running.base, ACME), await wage(running.base, ACME), await wage(running.base, ACME)]
      expect(acme.map((answer) => [answer.status, answer.limit, answer.remaining])).toEqual([
        [200, "3", "2"],
        [200, "3", "1"],
        [200, "3", "0"]
      ])
      expect(acme[0]!.policy).toBe('"default";q=3;w=60')
      const refused = await wage(running.base, ACME)
      expect([refused.status, refused.limit]).toEqual([429, "3"])
      expect(refused.message).toStartWith("Rate limit of 3 requests per minute exceeded")
      // the default's capacity: a batch of 5 is more than it holds (one token taken), then 3 requests pass
      const over = await batch(running.base, PLAIN, 5)
      expect([over.status, over.limit, over.remaining, over.message]).toEqual([
        400,
        "4",
        "3",
        "This request asks for 5 user agents; a key may send at most 4 at once"
      ])
      const plain = [] as Array<number>
      for (let i = 0; i < 4; i++) plain.push((await wage(running.base, PLAIN)).status)
      expect(plain).toEqual([200, 200, 200, 429])
    })

    test("a batch takes the key's tokens, up to its own capacity: 5 pass where the default is 4, 7 are refused", async () => {
      const seven = await batch(running.base, BATCHER, 7)
      expect([seven.status, seven.limit, seven.remaining, seven.message]).toEqual([
        400,
        "6",
        "5",
        "This request asks for 7 user agents; a key may send at most 6 at once"
      ])
      const five = await batch(running.base, BATCHER, 5)
      expect([five.status, five.limit, five.remaining]).toEqual([200, "6", "0"])
    })

    test("the name, never the key, is on the request's log line and in /metrics", async () => {
      // a request's line is written after its answer: each name waited for, as the earlier tests' lines may still come
      await until(() => running.stdout().includes('"keyId":"acme"') && running.stdout().includes('"keyId":"batcher"'))
      const metrics = await (await fetch(`${running.base}/metrics`)).text()
      expect(metrics).toContain('key_requests_total{key="acme",outcome="admitted"} 3')
      expect(metrics).toContain('key_requests_total{key="acme",outcome="rate_limited"} 1')
      for (const text of [running.stdout(), running.stderr(), metrics]) {
        for (const key of [ACME, BATCHER, PLAIN]) expect(text).not.toContain(key)
        expect(text).not.toContain(`key_${sha256(ACME).slice(0, 8)}`)
      }
    })

    test("SIGHUP changes a key's limit without a restart; a bad line keeps the limits in use", async () => {
      writeFileSync(keys, FILE.replace("limit=3", "limit=7"))
      running.proc.kill("SIGHUP")
      await until(async () => (await wage(running.base, ACME)).limit === "7")
      const after = await wage(running.base, ACME)
      expect([after.status, after.policy]).toEqual([200, '"default";q=7;w=60'])

      writeFileSync(keys, FILE.replace("limit=3", "limit=0"))
      running.proc.kill("SIGHUP")
      await until(() => running.stdout().includes("API keys not reloaded"))
      expect(running.stdout()).toContain(`${keys}: line 2 has a bad limit`)
      expect((await wage(running.base, ACME)).limit).toBe("7")
      expect(running.stdout()).not.toContain(ACME)
      expect(running.proc.exitCode).toBeNull()
    })
  })

test("in Redis, one key's own limit is one for every instance", async () => {
  const keys = join(dir, "keys-shared.txt")
  writeFileSync(keys, `${ACME.replace("acme", "corp")} limit=2 name=corp\n`)
  const env = { API_KEYS_FILE: keys, ...DEFAULT, REDIS_URL: redis.url }
  const [one, two] = await Promise.all([start(env), start(env)])
  try {
    const key = ACME.replace("acme", "corp")
    const answers = [await wage(one.base, key), await wage(two.base, key), await wage(one.base, key)]
    expect(answers.map((answer) => [answer.status, answer.limit, answer.remaining])).toEqual([
      [200, "2", "1"],
      [200, "2", "0"],
      [429, "2", "0"]
    ])
  } finally {
    await Promise.all([one.stop(), two.stop()])
  }
})

describe("a bad line stops the start: exit 1, its line named, never the key", () => {
  for (const [name, text, why] of [
    ["a limit of 0", `${ACME} limit=0\n`, "line 1 has a bad limit"],
    ["a limit past the bound", `# note\n${ACME} limit=1000000001\n`, "line 2 has a bad limit"],
    ["a name with a space's worth of junk", `${ACME} name=a/b\n`, "line 1 has a bad name"],
    ["a name taken twice", `${ACME} name=acme\n${PLAIN} name=acme\n`, "line 2 has the name of line 1"],
    ["a name like a digest id", `${ACME} name=key_0123abcd\n`, "line 1 has a bad name"],
    ["a setting given twice", `${ACME} limit=2 limit=3\n`, "line 1 gives limit twice"],
    ["one key with settings on two lines", `${ACME} limit=2\n${ACME} limit=3\n`, "line 2 repeats the key of line 1"]
  ] as const) {
    test(name, async () => {
      const path = join(dir, `bad-${name.replace(/\W/g, "-")}.txt`)
      writeFileSync(path, text)
      const result = await runOnce({ API_KEYS_FILE: path, PORT: "0" })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`API_KEYS_FILE ${path}: ${why}`)
      expect(result.stderr + result.stdout).not.toContain(ACME)
      expect(result.stdout).not.toContain("Listening")
    })
  }
})
