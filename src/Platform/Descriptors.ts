// The open-file limit caps the connections: at start the soft limit is raised to the operator's hard one, both logged.
import { dlopen, FFIType } from "bun:ffi"
import { Effect, Result } from "effect"

const LIBC: Partial<Record<NodeJS.Platform, string>> = { linux: "libc.so.6", darwin: "libSystem.B.dylib" }
const RLIMIT_NOFILE = process.platform === "darwin" ? 8 : 7
const rlimit = { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } as const
const UNLIMITED = 2 ** 64 - 1 // RLIM_INFINITY, read as a double

const number = (value: bigint) => (Number(value) >= UNLIMITED ? Infinity : Number(value))

/** Raises the soft limit to the hard one (Infinity for unlimited); undefined where libc cannot be reached. */
export const raiseDescriptorLimit = (): { readonly soft: number; readonly hard: number } | undefined => {
  const path = LIBC[process.platform]
  if (path === undefined) return undefined
  const opened = Result.try(() => dlopen(path, { getrlimit: rlimit, setrlimit: rlimit }))
  if (Result.isFailure(opened)) return undefined
  const libc = opened.success
  try {
    const limits = new BigUint64Array(2) // struct rlimit { rlim_cur; rlim_max }
    if (libc.symbols.getrlimit(RLIMIT_NOFILE, limits) !== 0) return undefined
    const [soft = 0n, hard = 0n] = limits
    // macOS refuses an unlimited soft limit for files (OPEN_MAX): the limit then stays as it was.
    const raised = soft < hard && libc.symbols.setrlimit(RLIMIT_NOFILE, new BigUint64Array([hard, hard])) === 0
    return { soft: number(raised ? hard : soft), hard: number(hard) }
  } finally {
    libc.close()
  }
}

export const logDescriptorLimit = Effect.suspend(() => {
  const limits = raiseDescriptorLimit()
  if (limits === undefined) return Effect.logWarning("File descriptor limit unknown: libc could not be reached")
  return Effect.logInfo(`File descriptors: soft limit ${limits.soft}, hard limit ${limits.hard}`)
})
