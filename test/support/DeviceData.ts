/**
 * Preloaded by `bun test` (bunfig.toml): writes the generated device database (scripts/deviceData.ts) when it is
 * missing or older than the package or the code that makes it, as install and build do, so the tests run on what
 * the service would load.
 */
const made = Bun.spawnSync([process.execPath, new URL("../../scripts/deviceData.ts", import.meta.url).pathname], {
  stdout: "inherit",
  stderr: "inherit"
})
if (made.exitCode !== 0) throw new Error("scripts/deviceData.ts failed: the device database could not be generated")
