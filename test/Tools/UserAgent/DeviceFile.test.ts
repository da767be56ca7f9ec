import { describe, expect, test } from "bun:test"
import { codeUnits, readSections, textOf, writeSections } from "../../../src/Tools/UserAgent/DeviceFile.ts"

describe("the device file's layout", () => {
  const written = writeSections(
    { source: "Matomo’s data", brands: [["Samsung", -1, null]] },
    {
      odd: Uint8Array.of(1, 2, 3),
      numbers: Int32Array.of(-1, 0, 2 ** 31 - 1),
      text: codeUnits("SM-A536B|Galaxy ⊢ 5G")
    }
  )

  test("gives back the head and every section as written", () => {
    const read = readSections<{ source: string; brands: unknown }>(written)
    expect(read.head.source).toBe("Matomo’s data")
    expect(read.head.brands).toEqual([["Samsung", -1, null]])
    expect([...read.u8("odd")]).toEqual([1, 2, 3])
    expect([...read.i32("numbers")]).toEqual([-1, 0, 2 ** 31 - 1])
    expect(textOf(read.u16("text"))).toBe("SM-A536B|Galaxy ⊢ 5G")
    // the head is ASCII: the file reads the same as Latin-1 or UTF-8
    expect(written.subarray(0, written.indexOf(10)).every((byte) => byte < 0x80)).toBe(true)
  })

  test("reads the sections in place, or copies them where the bytes lie unaligned", () => {
    const inPlace = readSections(written)
    expect(inPlace.i32("numbers").buffer).toBe(written.buffer)
    const shifted = new Uint8Array(written.length + 1)
    shifted.set(written, 1)
    const copied = readSections(shifted.subarray(1))
    expect([...copied.i32("numbers")]).toEqual([-1, 0, 2 ** 31 - 1])
    expect(textOf(copied.u16("text"))).toBe("SM-A536B|Galaxy ⊢ 5G")
  })

  test("refuses a truncated file and a section of another kind", () => {
    expect(() => readSections(written.subarray(0, written.length - 4))).toThrow("runs past the end")
    expect(() => readSections(written).i32("text")).toThrow("no i32 section text")
    expect(readSections(written).has("missing")).toBe(false)
  })
})
