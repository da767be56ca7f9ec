/** Polling with a deadline and one-request probes, for tests of real processes. */
import { WAGE_PATH } from "./TestApp.ts"

/** Polls `ok` every 50 ms until it holds, or throws once `ms` have passed. */
export const until = async (ok: () => boolean | Promise<boolean>, ms = 5_000) => {
  const deadline = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time")
    await Bun.sleep(50)
  }
}

/** The status of one wage estimate with `key`, on a connection of its own (so each may reach another worker). */
export const wageStatus = async (base: string, key: string) => {
  const response = await fetch(`${base}${WAGE_PATH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: '{"hourlyWage":20}',
    keepalive: false
  })
  await response.arrayBuffer()
  return response.status
}

/** Checks `ok` every 50 ms for `ms`, and throws the first time it does not hold: for what must not happen. */
export const holds = async (ok: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!(await ok())) throw new Error("condition broken")
    await Bun.sleep(50)
  }
}
