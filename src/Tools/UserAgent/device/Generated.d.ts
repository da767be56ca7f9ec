// The generated device database (scripts/deviceData.ts), imported `with { type: "file" }`: what the import gives is
// its path (embedded in the compiled binary)
declare module "*.data" {
  const path: string
  export default path
}
