/**
 * Other projects' labels in the API's vocabulary, shared by the corpus builders (`devCorpora.ts`, `heldOut.ts`):
 * browser and OS families, or "Other" for a name outside them; null where the source leaves the field unlabelled.
 * The mapping is written down in scripts/README.md.
 */

// Each source's names of the five browser families (lower case): Matomo ("Chrome Mobile", "Chrome Webview"),
// WhichBrowser ("Mobile Internet Explorer"), browscap ("Android WebView", "Firefox for iOS"), bowser ("Microsoft
// Edge"), woothee. The service reports the Chrome WebView as Chrome and an iOS app's WebKit view as Safari, so the
// sources' WebView labels map to those families; a rebranded Chromium (Opera, Samsung, Yandex) is Other.
const browserNames: Readonly<Record<string, string>> = {
  chrome: "Chrome",
  "chrome mobile": "Chrome",
  "chrome mobile ios": "Chrome",
  "chrome for ios": "Chrome",
  "chrome webview": "Chrome",
  "android webview": "Chrome",
  chromium: "Chrome",
  "headless chrome": "Chrome",
  firefox: "Firefox",
  "firefox mobile": "Firefox",
  "firefox ios": "Firefox",
  "firefox for ios": "Firefox",
  "firefox focus": "Firefox",
  safari: "Safari",
  "mobile safari": "Safari",
  "mobile safari uiwebview": "Safari",
  edge: "Edge",
  "microsoft edge": "Edge",
  "edge mobile": "Edge",
  ie: "IE",
  iemobile: "IE",
  "ie mobile": "IE",
  "internet explorer": "IE",
  "mobile internet explorer": "IE",
  "pocket internet explorer": "IE"
}

/** A source's browser name as a family or "Other"; null for no name or the source's "unknown". */
export const browserLabel = (name: unknown): string | null => {
  if (typeof name !== "string" || name.trim() === "") return null
  const lower = name.trim().toLowerCase()
  if (["unknown", "default browser", "webview", "generic"].includes(lower)) return null
  return browserNames[lower] ?? "Other"
}

export const linuxes = new RegExp(
  "^(gnu/linux|linux|ubuntu|kubuntu|xubuntu|lubuntu|debian|fedora|mint|arch linux|centos|red ?hat|suse|opensuse|" +
    "gentoo|slackware|mandriva|knoppix|pclinuxos|mageia|sabayon|raspbian|deepin|elementary os|joli os|linpus|" +
    "vectorlinux|zenwalk|manjaro|puppy|freespire|linspire)$",
  "i"
)

/** An OS name of Matomo, WhichBrowser or bowser (and its family) as the API's family; null when unlabelled. */
export const osFamily = (name: string | undefined, family?: string): string | null => {
  if (name === undefined || name === "") return null
  const n = name.toLowerCase()
  if (n === "ios" || n === "ipados") return "iOS"
  if (n === "mac" || n === "os x" || n === "macos") return "macOS"
  if (n === "windows") return "Windows"
  if (["android", "android tv", "fire os", "fireos"].includes(n)) return "Android"
  if (family === "Android" && !/harmony/i.test(n)) return "Android"
  if (linuxes.test(n) || family === "GNU/Linux" || family === "Linux") return "Linux"
  return "Other"
}
