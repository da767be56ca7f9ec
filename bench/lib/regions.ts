/**
 * A process's resident memory by the kind of mapping it lies in, from the text of /proc/PID/smaps, in bytes:
 * anonymous read-write (the JavaScript heap, malloc's arenas, buffers), anonymous executable (the JIT's code), and
 * file-backed (the runtime's binary, libraries and the files it maps). For bench/peakRegions.ts.
 */
export interface Regions {
  readonly anonymous: number
  readonly jitCode: number
  readonly fileBacked: number
}

// `start-end perms offset dev inode [name]`, e.g. `7f3a…-7f3b… r-xp 00000000 00:00 0` for JIT code
const MAPPING = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/

export const regionsOf = (smaps: string): Regions => {
  const bytes = { anonymous: 0, jitCode: 0, fileBacked: 0 }
  let region: keyof Regions = "anonymous"
  for (const line of smaps.split("\n")) {
    const mapping = MAPPING.exec(line)
    if (mapping !== null) {
      const [, permissions = "", name = ""] = mapping
      region = name.startsWith("/") ? "fileBacked" : permissions.includes("x") ? "jitCode" : "anonymous"
    } else if (line.startsWith("Rss:")) {
      bytes[region] += Number(line.split(/\s+/)[1]) * 1024
    }
  }
  return bytes
}

export const totalOf = (regions: Regions): number => regions.anonymous + regions.jitCode + regions.fileBacked
