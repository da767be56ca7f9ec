/**
 * The open-file limit (RLIMIT_NOFILE): every connection holds a descriptor, so the soft limit caps the connections.
 * At start it is raised to the hard limit (Bun 1.4 on Linux already does; this makes it so wherever libc is found)
 * and both are logged. Only the hard limit is left to the operator: `ulimit -Hn`, systemd `LimitNOFILE`, Docker
 * `--ulimit nofile`.
 */
import { dlopen, FFIType } from "bun:ffi"
import { Effect } from "effect"

const LIBC: Partial<Record<NodeJS.Platform, string>> = { linux: "libc.so.6", darwin: "libSystem.B.dylib" }
const RLIMIT_NOFILE = process.platform === "darwin" ? 8 : 7
/** RLIM_INFINITY, read as a double. */
const UNLIMITED = 2 ** 64 - 1

export interface DescriptorLimits {
  /** Infinity for unlimited. */
  readonly soft: number
  readonly hard: number
}

const number = (value: bigint) => (Number(value) >= UNLIMITED ? Infinity : Number(value))

/** Raises the soft limit to the hard one; undefined where libc cannot be reached (the limits are then unknown). */
export const raiseDescriptorLimit = (): DescriptorLimits | undefined => {
  const path = LIBC[process.platform]
  if (path === undefined) return undefined
  let libc: ReturnType<typeof open>
  const open = () =>
    dlopen(path, {
      getrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
      setrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 }
    })
  try {
    libc = open()
  } catch {
    return undefined
  }
  try {
    const limits = new BigUint64Array(2) // struct rlimit { rlim_cur; rlim_max } of 64-bit rlim_t
    if (libc.symbols.getrlimit(RLIMIT_NOFILE, limits) !== 0) return undefined
    if (limits[0]! < limits[1]!) {
      const raised = new BigUint64Array([limits[1]!, limits[1]!])
      // macOS refuses an unlimited soft limit for files (OPEN_MAX); the limit then stays as it was
      if (libc.symbols.setrlimit(RLIMIT_NOFILE, raised) === 0) limits[0] = limits[1]!
    }
    return { soft: number(limits[0]!), hard: number(limits[1]!) }
  } finally {
    libc.close()
  }
}

/** Raises the limit and logs it: one line, a warning where it could not be read. */
export const logDescriptorLimit = Effect.suspend(() => {
  const limits = raiseDescriptorLimit()
  if (limits === undefined) return Effect.logWarning("File descriptor limit unknown: libc could not be reached")
  return Effect.logInfo(`File descriptors: soft limit ${limits.soft}, hard limit ${limits.hard}`)
})
