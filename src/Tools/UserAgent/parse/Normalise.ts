// From ua-parser-js's result to the contract's; `rules: false` is the plain mapping, the accuracy script's baseline.
import { UAParser } from "ua-parser-js"
import { clientHints } from "../ClientHints.ts"
import type { UserAgentInfo } from "../Schemas.ts"
import { botMatch, detectBot } from "../bots/Detect.ts"
import type { Lookup } from "../device/Lookup.ts"
import { classType, deviceAnswer } from "../device/Answer.ts"
import { browserFamily, deviceType, known, osFamily, UNKNOWN } from "./Names.ts"
import { libraryParser } from "./Reused.ts"
import { decodeSpaces, forLibrary, type ParserResult, refine } from "./Rules.ts"
import { appExtensions, appParser } from "./Tokens.ts"

export interface NormaliseOptions {
  /** false: the library's answer mapped to the contract, without the rules */
  readonly rules?: boolean
  /** sec-ch-ua-mobile "?1" outranks rules read from the string */
  readonly mobileHint?: boolean
  /** the string with the model client hints restored, for the device database */
  readonly deviceText?: string
  readonly devices?: Lookup
}

// a bot that embeds a device's string is read without the "(compatible; ...)" comment naming it ("EzoicBot")
const withoutBotComment = (ua: string): string => {
  const token = botMatch(ua)
  const at = token === null ? -1 : ua.indexOf(token)
  const [open, close] = [ua.lastIndexOf("(compatible;", at), ua.indexOf(")", at)]
  if (at < 0 || open < 0 || close < 0 || ua.lastIndexOf(")", at) > open) return ua
  return (ua.slice(0, open) + ua.slice(close + 1)).trim()
}

export const normalise = (ua: string, result: ParserResult, options: NormaliseOptions = {}): UserAgentInfo => {
  const bot = detectBot(ua)
  const rules = options.rules !== false
  const fields = rules ? refine(ua, result, bot, options.mobileHint) : result
  const os = osFamily(fields.os.name)
  const type = deviceType(fields.device.type, os, bot.isBot)
  // the database holds phones, tablets, TVs and the like: no Windows or Mac desktop, no bot that names no device
  const desktop = type === "Desktop" && (os === "Windows" || os === "macOS")
  const looked = rules && !desktop && (!bot.isBot || (type !== "Unknown" && type !== "Desktop"))
  const text = options.deviceText ?? ua
  const deviceText = looked && bot.isBot ? withoutBotComment(text) : text
  const identity = looked ? options.devices?.(deviceText, fields.device.model) : undefined
  // Matomo's rule: a device that runs iOS or macOS is Apple's
  const apple = rules && known(fields.device.vendor) === UNKNOWN && (os === "iOS" || os === "macOS")
  const vendor = apple ? "Apple" : known(fields.device.vendor)
  const classed = identity === undefined || options.mobileHint === true ? undefined : classType(identity, type)
  const clueType = bot.isBot && !looked ? undefined : (classed ?? type)
  const device = rules
    ? deviceAnswer(deviceText, { vendor, model: fields.device.model }, identity, clueType)
    : { vendor, model: known(fields.device.model), name: UNKNOWN }
  return {
    userAgent: ua,
    browser: { name: browserFamily(fields.browser.name), version: known(fields.browser.version) },
    os: { name: os, version: known(fields.os.version) },
    device: { type: classed ?? type, ...device },
    cpu: { architecture: known(fields.cpu.architecture) },
    engine: { name: known(fields.engine.name), version: known(fields.engine.version) },
    bot: { isBot: bot.isBot, name: bot.name, category: bot.category }
  }
}

/** ua-parser-js's reading of a string and its client hints: a parse's first pass, which no lookup changes. */
export interface Reading {
  readonly text: string
  readonly result: ParserResult
  /** with client hints: whether sec-ch-ua-mobile is "?1", and the string with the model hint restored */
  readonly hinted?: { readonly mobileHint: boolean; readonly deviceText: string }
}

/** The first pass, refined by client hints when given (`new` matters: called as a function, UAParser drops them). */
export const readUserAgent = (ua: string, headers?: Readonly<Record<string, string>>, rules = true): Reading => {
  const text = rules ? decodeSpaces(ua) : ua
  const hints = headers === undefined ? undefined : clientHints(headers)
  // the library's extensions name the apps that borrow IE's or WebKit's string (Outlook, Teams, iTunes); a parser
  // is made afresh only for client hints, which it takes when made
  if (hints === undefined) {
    const parser = rules ? appParser(forLibrary(text)) : libraryParser(forLibrary(text))
    return { text, result: parser.getResult() }
  }
  const parser = rules ? new UAParser(forLibrary(text), appExtensions, hints) : new UAParser(forLibrary(text), hints)
  const result = parser.getResult()
  // outside a browser withClientHints answers synchronously; its Promise branch is for navigator.userAgentData
  const refined = result.withClientHints()
  const mobileHint = hints["sec-ch-ua-mobile"]?.trim() === "?1"
  // as Matomo does: the model from sec-ch-ua-model in place of Android's reduced "K"
  const model = hints["sec-ch-ua-model"]?.trim().replace(/^"|"$/g, "")
  // a function, so that `$&` in a model is not a replacement pattern
  const deviceText = model ? text.replace(/; K\)/, () => `; ${model})`) : text
  return { text, result: "browser" in refined ? refined : result, hinted: { mobileHint, deviceText } }
}

/** The second pass: the rules and the device lookups, on a string's reading. */
export const finishParse = (
  ua: string,
  reading: Reading,
  options: Omit<NormaliseOptions, "mobileHint"> = {}
): UserAgentInfo => {
  const { text, result, hinted } = reading
  return { ...normalise(text, result, hinted === undefined ? options : { ...options, ...hinted }), userAgent: ua }
}

/** Parse a string, refined by client hints when given: both passes. */
export const parseUserAgent = (
  ua: string,
  headers?: Readonly<Record<string, string>>,
  options: Omit<NormaliseOptions, "mobileHint"> = {}
): UserAgentInfo => finishParse(ua, readUserAgent(ua, headers, options.rules !== false), options)
