/** The browser, OS and device families a generated user agent may be asked for, and the combinations that exist. */
import { InvalidRequest, list } from "../../../Errors.ts"
import { type BrowserFamily, browserOses, type DeviceFamily, osDevices, type OsFamily } from "../Families.ts"

export interface GenerateOptions {
  readonly browser?: BrowserFamily | undefined
  readonly os?: OsFamily | undefined
  readonly deviceType?: DeviceFamily | undefined
}

export const invalid = (path: string, message: string, detail = message) =>
  new InvalidRequest({ message, details: [{ path, message: detail }] })

/** A combination no real browser has, blamed on the field a person likeliest chose last (browser, then os). */
export const checkCombination = (options: GenerateOptions): InvalidRequest | undefined => {
  const { browser, deviceType, os } = options
  if (os !== undefined && deviceType !== undefined && !osDevices[os].includes(deviceType)) {
    const oses = (Object.keys(osDevices) as Array<OsFamily>).filter((o) => osDevices[o].includes(deviceType))
    const only = `${os} runs on ${list(osDevices[os], "and")} devices only`
    return invalid("os", `${only}; for a ${deviceType} device choose os ${list(oses, "or")}`)
  }
  if (browser === undefined) return undefined
  const oses = Object.keys(browserOses[browser]) as Array<OsFamily>
  if (os !== undefined && browserOses[browser][os] !== true) {
    return invalid("browser", `${browser} does not run on ${os}; choose os ${list(oses, "or")}, or another browser`)
  }
  const devices = [...new Set(oses.flatMap((o) => osDevices[o]))]
  if (deviceType !== undefined && !devices.includes(deviceType)) {
    return invalid(
      "browser",
      `${browser} does not run on ${deviceType} devices; choose deviceType ${list(devices, "or")}, or another browser`
    )
  }
  return undefined
}
