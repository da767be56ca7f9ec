/**
 * A device database that cannot be read whole stops the start, in a real process: a copy of the project whose
 * generated file is damaged exits 1, its last line naming the file and what to do, as it would for a bad setting;
 * never a service that answers every device "Unknown". The offline parse refuses the same way.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { randomBytes } from "node:crypto"
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until } from "./support/Poll.ts"
import { outputOf } from "./support/Process.ts"
import { spawn } from "./support/Started.ts"

setDefaultTimeout(60_000)

const root = new URL("../", import.meta.url).pathname
const SAMSUNG = "Mozilla/5.0 (Linux; Android 14; SM-A536B Build/UP1A.231005.007; wv) AppleWebKit/537.36\n"

const damages: Record<string, (whole: Buffer) => Uint8Array> = {
  empty: () => new Uint8Array(0),
  "cut in half": (whole) => whole.subarray(0, whole.length >> 1),
  "a random body": (whole) => randomBytes(whole.length)
}

const copies: Array<string> = []
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

/** The project's sources and generated data, every file of the device database damaged; node_modules shared. */
const damagedCopy = (damage: (whole: Buffer) => Uint8Array): string => {
  const dir = mkdtempSync(join(tmpdir(), "damaged-devices-"))
  copies.push(dir)
  for (const part of ["src", "package.json", "tsconfig.json", "generated"])
    cpSync(join(root, part), join(dir, part), { recursive: true })
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  const devices = join(dir, "generated", "devices")
  for (const file of readdirSync(devices)) writeFileSync(join(devices, file), damage(readFileSync(join(devices, file))))
  return dir
}

/** Runs `bun src/main.ts args` in `dir` to its end, or for 20 s at most (a server that started anyway is stopped). */
const run = async (dir: string, args: ReadonlyArray<string>, stdin?: string) => {
  const proc = spawn([process.execPath, "src/main.ts", ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", API_KEYS: "damaged-device-data-key-1" },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe"
  })
  const timer = setTimeout(() => proc.kill(), 20_000)
  const { code, stdout, stderr } = await outputOf(proc)
  clearTimeout(timer)
  return { code, stdout, lines: stderr.trimEnd().split("\n") }
}

const expected = (dir: string) =>
  new RegExp(
    `^tools-api: could not start: the device database ${join(dir, "generated", "devices")}/[\\w.-]+ ` +
      "(is empty|is damaged \\(not the whole JSON the generator writes\\)): run `npm run data` to write it again$"
  )

describe("a damaged device database stops the start", () => {
  for (const [what, damage] of Object.entries(damages)) {
    test(`${what}: the server exits 1, the last line naming the file and \`npm run data\``, async () => {
      const dir = damagedCopy(damage)
      const { code, stdout, lines } = await run(dir, [])
      expect({ code, last: lines.at(-1) }).toEqual({ code: 1, last: expect.stringMatching(expected(dir)) })
      expect(lines.filter((line) => line.includes("device database"))).toHaveLength(1)
      expect(stdout).not.toContain("Listening on")
    })

    test(`${what}: \`parse\` exits 1 the same way, answering nothing`, async () => {
      const dir = damagedCopy(damage)
      const { code, stdout, lines } = await run(dir, ["parse"], SAMSUNG)
      expect({ code, last: lines.at(-1) }).toEqual({ code: 1, last: expect.stringMatching(expected(dir)) })
      expect(stdout).toBe("")
    })
  }
})

describe("a missing device database (an install with --ignore-scripts) stops the start", () => {
  for (const args of [[], ["parse"]])
    test(`${args.length === 0 ? "the server" : "`parse`"} exits 1, the last line naming the file it lacks`, async () => {
      const dir = damagedCopy((whole) => whole)
      rmSync(join(dir, "generated"), { recursive: true })
      const { code, stdout, lines } = await run(dir, args, SAMSUNG)
      expect({ code, last: lines.at(-1) }).toEqual({
        code: 1,
        last: expect.stringMatching(/^tools-api: could not start: .*Cannot find module '[./]*generated\/devices\//)
      })
      expect(stdout).not.toContain("Listening on")
    })
})

/** The index, and the brands file that holds Samsung's models (brand n is in file n mod 8, device/Data.ts). */
const victims: Record<string, (devices: string) => string> = {
  "the index": (devices) => join(devices, "index.json"),
  "Samsung's brands file": (devices) => {
    const names: Array<string> = JSON.parse(readFileSync(join(devices, "index.json"), "utf8")).brands.names
    return join(devices, `brands-${names.lastIndexOf("Samsung") % 8}.jsonl`)
  }
}

describe("a device database damaged after the start", () => {
  // the files are checked at start, and the index loaded and a brand's file read on the first string that needs them
  // (device/Database.ts): damaged in between, a file leaves the parses without what it holds, said once in the log
  for (const [what, victimIn] of Object.entries(victims))
    test(`${what}: parses still answer, without the database's names, and the log says so once`, async () => {
      const dir = damagedCopy((whole) => whole)
      const proc = Bun.spawn([process.execPath, "src/main.ts"], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", API_KEYS: "damaged-device-data-key-1" },
        stdout: "pipe",
        stderr: "ignore"
      })
      try {
        const lines: Array<string> = []
        const reading = (async () => {
          for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) lines.push(chunk)
        })()
        const listening = () => /Listening on http:\/\/[^:]+:(\d+)/.exec(lines.join(""))?.[1]
        await until(() => listening() !== undefined, 20_000)
        const port = listening()
        const data = victimIn(join(dir, "generated", "devices"))
        writeFileSync(data, readFileSync(data).subarray(0, 1000))
        const parse = () =>
          fetch(`http://127.0.0.1:${port}/v1/tools/user-agent-parser`, {
            method: "POST",
            headers: { authorization: "Bearer damaged-device-data-key-1", "content-type": "application/json" },
            body: JSON.stringify({ operation: "parse", userAgent: SAMSUNG.trim() })
          })
        const names: Array<string> = []
        for (let i = 0; i < 2; i++) {
          const response = await parse()
          expect(response.status).toBe(200)
          const body = (await response.json()) as { data: { device: { type: string; name: string } } }
          expect(body.data.device.type).toBe("Mobile")
          names.push(body.data.device.name)
        }
        const said = () =>
          lines
            .join("")
            .split("\n")
            .filter((line) => line.includes("device database"))
        expect(names).toEqual(["Unknown", "Unknown"])
        await until(() => said().length > 0)
        expect(said()).toHaveLength(1)
        expect(said()[0]).toContain(`${data} is damaged (not the whole JSON the generator writes)`)
        proc.kill()
        await reading
      } finally {
        proc.kill()
        await proc.exited
      }
    })
})

describe("`parse` with a device database damaged after the start", () => {
  // stdout is the command's answers alone: the log's one line about the file goes to stderr, whichever thread parsed
  const DESKTOPS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"
  ]
  for (const jobs of ["1", "2"])
    test(`--jobs ${jobs}: every line answered as JSON on stdout, the damaged file said once on stderr`, async () => {
      const dir = damagedCopy((whole) => whole)
      const proc = Bun.spawn([process.execPath, "src/main.ts", "parse", "--jobs", jobs], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "" },
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe"
      })
      try {
        const out: Array<string> = []
        const err: Array<string> = []
        const reading = Promise.all([
          (async () => {
            for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) out.push(chunk)
          })(),
          (async () => {
            for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) err.push(chunk)
          })()
        ])
        const answered = () => out.join("").split("\n").length - 1
        // one desktop agent at a time, answered before the next: each worker has started (and checked the files)
        for (const [i, agent] of DESKTOPS.entries()) {
          proc.stdin.write(`${agent}\n`)
          proc.stdin.flush()
          await until(() => answered() === i + 1, 20_000)
        }
        const data = victims["Samsung's brands file"]!(join(dir, "generated", "devices"))
        writeFileSync(data, readFileSync(data).subarray(0, 1000))
        proc.stdin.write(SAMSUNG)
        proc.stdin.end()
        expect(await proc.exited).toBe(0)
        await reading
        const answers = out
          .join("")
          .trimEnd()
          .split("\n")
          .map((line) => JSON.parse(line))
        expect(answers.map((answer) => answer.device.type)).toEqual(["Desktop", "Desktop", "Mobile"])
        expect(answers[2].device.name).toBe("Unknown")
        const said = err
          .join("")
          .split("\n")
          .filter((line) => line.includes("device database"))
        expect(said).toHaveLength(1)
        expect(said[0]).toContain(`${data} is damaged (not the whole JSON the generator writes)`)
      } finally {
        proc.kill()
        await proc.exited
      }
    })
})
