// The generated device database's files imported `with { type: "file" }`: their paths (embedded in the compiled binary)
declare module "*.jsonl" {
  const path: string
  export default path
}
// and their sums (device/Data.ts's sumText), checked at start
declare module "*.sum" {
  const path: string
  export default path
}
