import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_KEYS_FILE_BYTES, readRegularFile } from "../../src/Services/FinishedFile.ts"

const dir = mkdtempSync(join(tmpdir(), "regular-file-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const text = (read: ReturnType<typeof readRegularFile>) => (typeof read === "string" ? read : read.text)

describe("readRegularFile", () => {
  test("a regular file, through a symlink too, up to the bound exactly", () => {
    const path = join(dir, "keys")
    writeFileSync(path, "a-key\n")
    symlinkSync(path, join(dir, "link"))
    expect(text(readRegularFile(join(dir, "link")))).toBe("a-key\n")
    writeFileSync(path, "#".repeat(MAX_KEYS_FILE_BYTES))
    expect(text(readRegularFile(path))).toHaveLength(MAX_KEYS_FILE_BYTES)
  })

  test.each([
    ["a directory", () => (mkdirSync(join(dir, "d")), join(dir, "d")), "it is a directory, not a regular file"],
    ["a device", () => "/dev/zero", "it is a device, not a regular file"],
    [
      "a FIFO",
      () => (Bun.spawnSync(["mkfifo", join(dir, "fifo")]), join(dir, "fifo")),
      "it is a FIFO (named pipe), not a regular file"
    ],
    [
      "a file one byte over the bound",
      () => (writeFileSync(join(dir, "big"), "#".repeat(MAX_KEYS_FILE_BYTES + 1)), join(dir, "big")),
      "it is larger than 1 MiB, the most a keys file may hold"
    ],
    // a regular file whose size says 0 and whose reading gives megabytes, as a file still growing would
    ["/proc/kallsyms", () => "/proc/kallsyms", "reading it gave more than 1 MiB, past its size (still growing?)"]
  ])("%s is refused at once, saying what it is", (_, make, why) => {
    const path = make()
    const started = Date.now()
    expect(readRegularFile(path)).toBe(`${path} could not be read: ${why}`)
    // not held: a FIFO without a writer or an endless file would never return (the bound leaves room for a loaded machine)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test("a missing file names the error code", () => {
    expect(readRegularFile(join(dir, "missing"))).toBe(`${join(dir, "missing")} could not be read (ENOENT)`)
  })
})
