// `new UAParser(ua, extensions)` merges the extensions' patterns into the library's own on every string: ~6 µs of a
// ~100 µs parse (scripts/README.md, "One parser an extension list"). One parser each, given each string by `setUA`,
// merges them once; a parse is synchronous, so one parser serves every caller in turn.
import { UAParser } from "ua-parser-js"

/** `make`'s parser, made on the first string, not at import, and set to `ua`. */
export const reused = (make: () => UAParser) => {
  let parser: UAParser | undefined
  return (ua: string): UAParser => {
    if (parser === undefined) parser = make()
    return parser.setUA(ua)
  }
}

/** The library without extensions. */
export const libraryParser = reused(() => new UAParser())
