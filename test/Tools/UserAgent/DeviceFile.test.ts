import { describe, expect, test } from "bun:test"
import { escaped, latin1, latin1Text, readSections, writeSections } from "../../../src/Tools/UserAgent/DeviceFile.ts"

describe("the device file's layout", () => {
  const written = writeSections(
    { source: "Matomo’s data", brands: [["Samsung", -1, null]] },
    {
      odd: Uint8Array.of(1, 2, 3),
      numbers: Int32Array.of(-1, 0, 2 ** 31 - 1),
      text: latin1(escaped("X-music (?:S|Ⅲ|III)|Café"))
    }
  )

  test("gives back the head and every section as written", () => {
    const read = readSections<{ source: string; brands: unknown }>(written)
    expect(read.head.source).toBe("Matomo’s data")
    expect(read.head.brands).toEqual([["Samsung", -1, null]])
    expect([...read.u8("odd")]).toEqual([1, 2, 3])
    expect([...read.i32("numbers")]).toEqual([-1, 0, 2 ** 31 - 1])
    // the head is ASCII: the file reads the same as Latin-1 or UTF-8
    expect(written.subarray(0, written.indexOf(10)).every((byte) => byte < 0x80)).toBe(true)
  })

  test("a pattern beyond Latin-1 is kept escaped, a byte a character, and matches what it matched", () => {
    const text = latin1Text(readSections(written).u8("text"))
    expect(text).toBe("X-music (?:S|\\u2162|III)|Café")
    expect(new RegExp(text, "i").test("X-music Ⅲ")).toBe(true)
    expect(new RegExp(text, "i").test("x-music ⅲ")).toBe(true)
    expect(() => latin1("Ⅲ")).toThrow("not Latin-1")
  })

  test("copies each section out, so the file is not kept, wherever its bytes lie", () => {
    const read = readSections(written)
    expect(read.i32("numbers").buffer).not.toBe(written.buffer)
    const shifted = new Uint8Array(written.length + 1)
    shifted.set(written, 1)
    const copied = readSections(shifted.subarray(1))
    expect([...copied.i32("numbers")]).toEqual([-1, 0, 2 ** 31 - 1])
    const [start, end] = copied.place("odd")
    expect([...shifted.subarray(1).subarray(start, end)]).toEqual([1, 2, 3])
  })

  test("refuses a truncated file and a section of another kind", () => {
    expect(() => readSections(written.subarray(0, written.length - 4))).toThrow("runs past the end")
    expect(() => readSections(written).i32("text")).toThrow("no i32 section text")
    expect(() => readSections(written).place("missing")).toThrow("no section missing")
    expect(readSections(written).has("missing")).toBe(false)
  })
})
