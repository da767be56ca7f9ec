/** A start that fails says why last: the log lines written before it come first, on a terminal that shows both. */
import { expect, test } from "bun:test"
import { binary } from "../support/Binary.ts"
import { command } from "../support/Process.ts"
import { spawn } from "../support/Started.ts"

/** stdout and stderr into one pipe, as a terminal or `2>&1` shows them; the lines in the order they were written. */
const together = async (env: Record<string, string>, program: Array<string>) => {
  const proc = spawn(["sh", "-c", '"$@" 2>&1', "sh", ...program], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "ignore"
  })
  const text = await new Response(proc.stdout).text()
  return { code: await proc.exited, lines: text.trimEnd().split("\n") }
}

for (const from of ["source", "binary"] as const) {
  test(`${from}: a port in use is the last line, after the log lines of the start (exit 1)`, async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() })
    try {
      const program = from === "source" ? command() : command(await binary())
      const env = { HOST: "127.0.0.1", PORT: String(taken.port), API_KEYS: "start-failure-key" }
      const { code, lines } = await together(env, program)
      expect(code).toBe(1)
      expect(lines.length).toBeGreaterThan(1) // the descriptor line and the key warning come before
      expect(lines.at(-1)).toBe(`tools-api: invalid configuration: PORT ${taken.port} is already in use on 127.0.0.1`)
    } finally {
      taken.stop(true)
    }
  }, 60_000)
}
