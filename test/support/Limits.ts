/** A process's open-file limits as Linux reports them (`/proc/<pid>/limits`), for the descriptor tests. */
import { readFileSync } from "node:fs"

/** [soft, hard] open files for a process. */
export const openFileLimits = (pid: number | "self"): Array<number> => {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"))!
  return line.split(/\s+/).slice(3, 5).map(Number)
}
