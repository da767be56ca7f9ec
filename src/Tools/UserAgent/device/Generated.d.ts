// The generated device database, imported `with { type: "file" }`: its path (embedded in the compiled binary)
declare module "*.data" {
  const path: string
  export default path
}
// and its sum (device/Data.ts's sumOf), checked at start
declare module "*.sum" {
  const path: string
  export default path
}
