/**
 * What a running process has cost so far, read from Linux's /proc: CPU time (clock ticks from `stat`, or nanoseconds
 * from each thread's `schedstat`) and memory (`VmHWM`, `VmRSS` from `status`).
 */
import { readdirSync, readFileSync } from "node:fs"

let clockTicks: number | undefined
/** Ticks a second of the `stat` times (USER_HZ): asked of getconf once, 100 where it cannot say. */
const ticksPerSecond = (): number => {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100
    } catch {
      clockTicks = 100
    }
  }
  return clockTicks
}

/** CPU time (user + system) the process has used so far, all its threads (JavaScript, JIT, GC), in seconds. */
export const cpuSeconds = (pid: number): number => {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond()
  } catch {
    return Number.NaN
  }
}

const childrenOf = (pid: number): Array<number> => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(" ").filter(Boolean).map(Number)
    )
  } catch {
    return []
  }
}

/**
 * cpuSeconds of the process and, recursively, of the children it has now (the service's workers). A child that ends
 * between the two reads counts nothing rather than spoiling the sum.
 */
export const cpuSecondsWithChildren = (pid: number): number =>
  childrenOf(pid).reduce((sum, child) => {
    const used = cpuSecondsWithChildren(child)
    return Number.isNaN(used) ? sum : sum + used
  }, cpuSeconds(pid))

/**
 * CPU time used so far by all the threads of a process, in ms, from /proc/<pid>/task/<tid>/schedstat (ns): finer
 * than the ticks of `stat`, for a start-up that takes a few hundred ms.
 */
export const cpuMillis = (pid: number): number => {
  let ns = 0
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return Number.NaN
  }
  return ns / 1e6
}

/** A `kB` line of /proc/<pid>/status in bytes, or undefined when the process or the line is not there. */
const statusBytes = (pid: number, field: "VmHWM" | "VmRSS"): number | undefined => {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** Peak resident memory in bytes (VmHWM, else VmRSS, else 0), read while the process is alive. */
export const peakRss = (pid: number): number => statusBytes(pid, "VmHWM") ?? statusBytes(pid, "VmRSS") ?? 0

/** Resident memory now in bytes (VmRSS), NaN once the process is gone. */
export const rss = (pid: number): number => statusBytes(pid, "VmRSS") ?? Number.NaN
