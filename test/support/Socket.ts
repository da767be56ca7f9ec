/** Raw HTTP/1.1 over a TCP socket, for what fetch cannot send: bad bytes, huge headers, raw methods, half requests. */
import { connect, type Socket } from "node:net"

export interface RawAnswer {
  /** The status of the first final response, or undefined when none came. */
  readonly status: number | undefined
  /** The statuses of the interim (1xx) responses before it, such as 100 Continue. */
  readonly interim: ReadonlyArray<number>
  readonly headers: Headers
  readonly body: string
  /** Whether the server closed the connection before the timeout. */
  readonly closed: boolean
  /** Milliseconds from connecting to the close (or the timeout). */
  readonly elapsedMs: number
}

const parse = (bytes: Buffer, closed: boolean, elapsedMs: number): RawAnswer => {
  let text = bytes.toString("latin1")
  const interim: Array<number> = []
  while (/^HTTP\/1\.1 1\d\d /.test(text)) {
    interim.push(Number(text.slice(9, 12)))
    text = text.slice(text.indexOf("\r\n\r\n") + 4)
  }
  const end = text.indexOf("\r\n\r\n")
  if (end === -1) return { status: undefined, interim, headers: new Headers(), body: "", closed, elapsedMs }
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n")
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  let raw = Buffer.from(text.slice(end + 4), "latin1")
  const length = headers.get("content-length")
  if (length !== null) raw = raw.subarray(0, Number(length))
  else if (headers.get("transfer-encoding")?.includes("chunked")) {
    const parts: Array<Buffer> = []
    let at = 0
    for (;;) {
      const lineEnd = raw.indexOf("\r\n", at)
      const size = parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16)
      if (lineEnd === -1 || !(size > 0)) break
      parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
    raw = Buffer.concat(parts)
  }
  const status = Number(statusLine.split(" ")[1])
  return { status, interim, headers, body: raw.toString("utf8"), closed, elapsedMs }
}

/** A connection you write to piece by piece; `answer` resolves when the server closes it or at the timeout. */
export const open = (port: number, timeoutMs = 5_000) => {
  const socket: Socket = connect(port, "127.0.0.1")
  const started = Date.now()
  const chunks: Array<Buffer> = []
  socket.on("data", (chunk: Buffer) => chunks.push(chunk))
  socket.on("error", () => {})
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()))
  const answer = new Promise<RawAnswer>((resolve) => {
    const timer = setTimeout(() => {
      resolve(parse(Buffer.concat(chunks), false, Date.now() - started))
      socket.destroy()
    }, timeoutMs)
    socket.once("close", () => {
      clearTimeout(timer)
      resolve(parse(Buffer.concat(chunks), true, Date.now() - started))
    })
  })
  return {
    write: async (data: string | Uint8Array) => {
      await connected
      await new Promise<void>((resolve) => socket.write(data, () => resolve()))
    },
    answer,
    /** What the server has sent so far, as text. */
    received: () => Buffer.concat(chunks).toString("latin1"),
    destroy: () => socket.destroy()
  }
}

/** Sends the bytes (ask for `Connection: close` in them) and reads the answer. */
export const rawRequest = async (port: number, data: string | Uint8Array, timeoutMs = 5_000): Promise<RawAnswer> => {
  const connection = open(port, timeoutMs)
  await connection.write(data)
  return connection.answer
}

/** A request head and body as bytes; the body's length is declared unless `headers` says otherwise. */
export const httpRequest = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array = ""
): Buffer => {
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body)
  const all: Record<string, string> = { host: "localhost", connection: "close", ...headers }
  if (bytes.length > 0 && all["transfer-encoding"] === undefined) all["content-length"] ??= String(bytes.length)
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")
  return Buffer.concat([Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n`, "utf8"), bytes])
}
