// node-device-detector's device data files, imported `with { type: "file" }`: what the import gives is the path
declare module "node-device-detector/regexes/device/*" {
  const path: string
  export default path
}
