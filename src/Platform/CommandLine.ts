/** A failed start as the one line on stderr: a bad setting names its variable. (The command line is `src/Cli`.) */
export const reportStartFailure = (failure: unknown): void => {
  const tag = (failure as { readonly _tag?: unknown } | undefined)?._tag
  if (tag === "WorkerStartFailed") return // the worker has said why
  const message = tag === "InvalidConfig" ? `invalid configuration: ${(failure as Error).message}` : String(failure)
  process.stderr.write(`tools-api: ${tag === "InvalidConfig" ? message : `could not start: ${message}`}\n`)
}
