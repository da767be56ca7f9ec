// Chart.js's browser build, imported `with { type: "text" }`: its source (embedded in the compiled binary), inlined
declare module "*/chart.umd.min.js" {
  const source: string
  export default source
}
