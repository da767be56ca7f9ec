/**
 * `parse --format csv` read back by Python's csv module, as a spreadsheet or DuckDB would: a header naming flat
 * columns, one row a line in input order, the same values as the JSON lines, quoting that survives quotes, commas and
 * a lone `\r` inside a user agent, and an error row for a line that fails.
 */
import { afterAll, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runOnce } from "../support/Process.ts"

const dir = mkdtempSync(join(tmpdir(), "tools-api-csv-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const SAMSUNG =
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
const QUOTED = 'Odd "Agent", with\rcommas/1.0'
const line = (ua: string, i: number) =>
  `203.0.113.${i} - - [26/Nov/2026:10:00:0${i} +0000] "GET /p?a=1,2 HTTP/1.1" 200 1 "-" "${ua.replace(/"/g, "\\x22")}"`

/** The rows as Python's csv.DictReader reads them, as JSON. */
const readCsv = (path: string) => {
  const script = "import csv, json, sys\nprint(json.dumps(list(csv.DictReader(open(sys.argv[1], newline='')))))"
  const proc = Bun.spawnSync(["python3", "-c", script, path])
  expect(proc.exitCode).toBe(0)
  return JSON.parse(proc.stdout.toString()) as Array<Record<string, string>>
}

test("--log combined --format csv: Python's csv module reads the header and every row as the JSON lines say", async () => {
  const log = join(dir, "access.log")
  writeFileSync(log, [line(SAMSUNG, 1), line(QUOTED, 2), "not a log line", line("kube-probe/1.29", 4)].join("\n"))
  const csv = await runOnce({}, ["parse", "--log", "combined", "--format", "csv", log])
  const json = await runOnce({}, ["parse", "--log", "combined", log])
  expect(csv.code).toBe(1) // the line that is not in the format
  const path = join(dir, "out.csv")
  writeFileSync(path, csv.stdout)
  const rows = readCsv(path)
  expect(Object.keys(rows[0]!)).toEqual(
    (
      "file,line,client,time,method,path,status,userAgent,browser_name,browser_version,os_name,os_version,device_type," +
      "device_vendor,device_model,device_name,cpu_architecture,engine_name,engine_version,bot_isBot,bot_name," +
      "bot_category,error_code,error_message"
    ).split(",")
  )
  const results = json.stdout
    .trimEnd()
    .split("\n")
    .map((text) => JSON.parse(text))
  expect(rows).toHaveLength(results.length)
  results.forEach((result, i) => {
    const row = rows[i]!
    expect(row.file).toBe(log)
    expect(row.line).toBe(String(result.line))
    if (result.error !== undefined) {
      expect([row.error_code, row.error_message, row.userAgent]).toEqual([result.error.code, result.error.message, ""])
      return
    }
    expect(row).toMatchObject({
      client: result.log.client,
      time: result.log.time,
      path: result.log.path,
      status: String(result.log.status),
      userAgent: result.userAgent,
      browser_name: result.browser.name,
      os_version: result.os.version,
      device_type: result.device.type,
      device_model: result.device.model,
      device_name: result.device.name,
      bot_isBot: String(result.bot.isBot),
      bot_category: result.bot.category,
      error_code: ""
    })
  })
  expect(rows[1]!.userAgent).toBe(QUOTED)
  expect(rows[3]!.bot_category).toBe("monitor")
}, 30_000)

test("plain input: file and line columns, no log columns; --format csv with --summary is a usage error", async () => {
  const csv = await runOnce({}, ["parse", "--format", "csv"], undefined, "curl/8.5.0\n")
  expect(csv.stdout.split("\n")[0]).toStartWith("file,line,userAgent,browser_name,")
  expect(csv.stdout.split("\n")[1]).toStartWith(",1,curl/8.5.0,curl,8.5.0,")
  const both = await runOnce({}, ["parse", "--format", "csv", "--summary"], undefined, "curl/8.5.0\n")
  expect(both.code).toBe(2)
}, 30_000)
