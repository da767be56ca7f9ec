/** This program as a command another process can run: the compiled binary alone, or Bun and the script from source. */
export const selfCommand = (): ReadonlyArray<string> =>
  Bun.isStandaloneExecutable ? [process.execPath] : [process.execPath, Bun.main]
