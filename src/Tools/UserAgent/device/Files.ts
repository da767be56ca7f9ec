/// <reference path="./Generated.d.ts" />
// The generated device database (scripts/deviceData.ts). The brands' and the names' files are imported `with { type:
// "file" }`: their paths, each embedded by `bun build --compile` (which embeds only what is imported by a literal path).
// As many brands files as BRAND_FILES. The index is imported as a JSON module on the first lookup: the compiled binary
// carries it as code (its bytecode builds it in ~1 ms, where reading and parsing the file took ~5 ms and a collection).
import brands0 from "../../../../generated/devices/brands-0.jsonl" with { type: "file" }
import brands1 from "../../../../generated/devices/brands-1.jsonl" with { type: "file" }
import brands2 from "../../../../generated/devices/brands-2.jsonl" with { type: "file" }
import brands3 from "../../../../generated/devices/brands-3.jsonl" with { type: "file" }
import brands4 from "../../../../generated/devices/brands-4.jsonl" with { type: "file" }
import brands5 from "../../../../generated/devices/brands-5.jsonl" with { type: "file" }
import brands6 from "../../../../generated/devices/brands-6.jsonl" with { type: "file" }
import brands7 from "../../../../generated/devices/brands-7.jsonl" with { type: "file" }
import names from "../../../../generated/devices/names.jsonl" with { type: "file" }
import sums from "../../../../generated/devices/files.sum" with { type: "file" }
import type { DeviceFiles } from "./Data.ts"

export const generatedFiles: DeviceFiles = {
  // where a start from source checks it; the compiled binary has no such file
  index: new URL("../../../../generated/devices/index.json", import.meta.url).pathname,
  brands: [brands0, brands1, brands2, brands3, brands4, brands5, brands6, brands7],
  names,
  sums
}

/** The index as the JSON module holds it, for its Schema to decode. */
export const importIndex = (): Promise<unknown> =>
  import("../../../../generated/devices/index.json", { with: { type: "json" } }).then((module) => module.default)
