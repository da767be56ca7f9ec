// `parse --format csv`: one row a line, flat columns (RFC 4180 quoting), so a spreadsheet or DuckDB reads it as is.
import type { UserAgentInfo } from "../../Tools/UserAgent/Schemas.ts"

/** What Lines.ts read of a log line. */
export interface LogEntry {
  readonly client: string
  readonly time: string
  readonly method: string | null
  readonly path: string | null
  readonly status: number | null
}

const WHERE = ["file", "line"] as const
const LOG = ["client", "time", "method", "path", "status"] as const
const DATA = [
  "userAgent",
  "browser_name",
  "browser_version",
  "os_name",
  "os_version",
  "device_type",
  "device_vendor",
  "device_model",
  "device_name",
  "cpu_architecture",
  "engine_name",
  "engine_version",
  "bot_isBot",
  "bot_name",
  "bot_category"
] as const
const ERROR = ["error_code", "error_message"] as const

/** The header line: `file,line`, the log's fields with `--log`, the API's data flattened, then the error's. */
export const csvHeader = (combined: boolean) => `${[...WHERE, ...(combined ? LOG : []), ...DATA, ...ERROR].join(",")}\n`

// quoted only when it must be: a comma, a quote or a line break inside
const field = (value: string | number | boolean | null | undefined): string => {
  if (value === null || value === undefined) return ""
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const dataOf = (data: UserAgentInfo) => [
  data.userAgent,
  data.browser.name,
  data.browser.version,
  data.os.name,
  data.os.version,
  data.device.type,
  data.device.vendor,
  data.device.model,
  data.device.name,
  data.cpu.architecture,
  data.engine.name,
  data.engine.version,
  data.bot.isBot,
  data.bot.name,
  data.bot.category
]

const logOf = (log: LogEntry | undefined) =>
  log === undefined ? [] : [log.client, log.time, log.method, log.path, log.status]

/** A parsed agent's columns, the same on each of its rows. */
export const csvData = (data: UserAgentInfo) => dataOf(data).map(field).join(",")

/** A parsed line's row, `data` its agent's columns; `combined`: whether the log's columns are there (empty when the line was not read as one). */
export const csvRow = (
  file: string | undefined,
  line: number,
  combined: boolean,
  log: LogEntry | undefined,
  data: string
) => `${[file, line, ...(combined ? logOf(log) : [])].map(field).join(",")},${data},,\n`

/** A line that could not be parsed: where it was, the error's code and message, every other column empty. */
export const csvError = (
  file: string | undefined,
  line: number,
  combined: boolean,
  error: { readonly code: string; readonly message: string }
) =>
  `${[file, line, ...(combined ? LOG.map(() => "") : []), ...DATA.map(() => ""), error.code, error.message].map(field).join(",")}\n`
