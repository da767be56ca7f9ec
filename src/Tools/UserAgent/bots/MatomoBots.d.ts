/** Matomo's bot list as node-device-detector ships it (the fields read here). */
declare module "node-device-detector/regexes/bots.js" {
  const bots: ReadonlyArray<{ readonly regex: string; readonly name: string; readonly category: string }>
  export default bots
}
