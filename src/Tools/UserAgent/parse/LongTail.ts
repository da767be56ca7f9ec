// Token tables for devices the library leaves untyped or types by "Mobile" alone: each a platform's or vendor's convention.

// feature-phone platforms (WAP, J2ME, BREW...) and makers: no smartphone or desktop browser sends these
const featurePhone = new RegExp(
  "\\b(MIDP|CLDC|J2ME|UP\\.Browser|UP\\.Link|WAP|MAUI|Obigo|Teleca|BREW|REX|MRE|Mocor|NetFront|Opera Mini|UCWEB|" +
    "jig browser|DoCoMo|KDDI|SoftBank|Vodafone|SonyEricsson|Nokia|Series ?[346]0|S40|Symbian|SymbOS|BlackBerry|" +
    "BB10|Bada|KaiOS|Polaris|Dolfin|PalmOS|PalmSource|Windows CE|IEMobile|Opera Mobi|Smartphone|Profile\\/MIDP|" +
    "MMP\\/|Tizen|Maemo|MeeGo|Sailfish|Firefox OS)\\b|" +
    "^(SAMSUNG|SEC|Sagem|SIE|MOT|LG|LGE|Alcatel|ZTE|Huawei|Lenovo|Fly|Karbonn|Micromax|Philips|Panasonic|Sharp|" +
    "Sanyo|Sendo|NEC|Haier|Spice|Lava|Itel|Tecno|QMobile|Cricket|AIRNESS|Amoi|BenQ|Vertu)[-_ ]?[A-Z0-9]",
  "i"
)

// handset-only browsers, whatever system they name: Opera Mini's and UC Browser's Java editions send "(Linux; U; ...)"
const mobileOnly = /\b(Opera Mini|UCWEB|J2ME|Profile\/MIDP|Configuration\/CLDC)\b/

// speakers (Sonos "ZP", Echo "AEO"), Android cameras, Samsung's Family Hub fridge, car head units
export const embeddedMarker = new RegExp(
  "\\bSonos\\/[\\d.-]+ \\(ZP|\\b(QtCarBrowser|CarPad|KZCAR|Family ?Hub|COOLPIX)\\b|" +
    "\\b(?:SAMSUNG )?EK-G[CN]\\d|\\bDMC-CM\\d|; AEO[A-Z]{2}[;) ]"
)

const tvMarker = new RegExp(
  "\\b(TV|ATV|wv-atv|Android ?TV|Google ?TV|SmartTV|Smart-?TV|SMART_TV|HbbTV|NetCast|BRAVIA|AFT[A-Z0-9]+|Roku|" +
    "BrightSign|CrKey|HiSTB\\w*|Nexus Player|Chromecast|MiBOX|MiTV|AQUOS-TV\\w*|Web0S|webOS\\.TV|VIDAA|Opera TV|" +
    "OMI\\/|Espial|Hybridcast|InettvBrowser|DTV|IPTV|STB|TVBox|Freebox|Viera|REGZA|PhilipsTV|Maple|SmartHub|DirectFB|" +
    "Kylo|PlayStation Vue|Apple ?TV|AppleTV|tvOS|NETTV|CE-HTML|TiVo|TiviMate|Linux (?:mips|sh4))\\b",
  "i"
)

// a model named as a box, stick or screen, a panel and its inches ("TF-LED40S63T2S"), inches leading a TV code
// ("43U600KD"; not 70, a tablet's 7.0), Android box makers and codes (X96, T95), TV brands' model prefixes
const tvModel = new RegExp(
  [
    "\\bbox|box\\b|\\b(Stick|Shell|Dongle|4K|UHD|FHD|QLED|OLED|LED\\d*)\\b|(?:^|[-_ ])Q?LED[-_ ]?\\d{2}",
    "^(?:[A-Z]{1,4}[-_ ]?)?(?:2[4-9]|[3-8]\\d)(?:LE|LED|UH?D|F\\d|H\\d|[A-Z]{2,3}[-_ ]?\\d{3,4})",
    "^(?:[A-Z]{1,4}[-_ ]?)?(?:2[4-9]|[3-6]\\d|7[5-9]|8[0-6])[A-Z]{1,3}\\d{2,3}[A-Z]{1,3}\\d?$",
    "^(MXQ|X96|X88|H96|T95|TX\\d|A95X|HK1|TOX\\d|M8S|AS_?4K|KM\\d(?!\\d)|MECOOL|Magicsee|Beelink|UGOOS|ZIDOO|VONTAR|NEXON)",
    "^ADT-\\d|(?:^|[-_ ])OTT(?:[-_ ]|$)|^(Formuler|pendoo|VORKE|Orbsmart|YUNDOO|RKM|MyGica|OzoneHD|Minix|NEO-[XU]\\d|Tanix|Amigo7|Zappiti|Dune ?HD)",
    "^(Polar(?:line)?_|NEKO_|ERISSON_|MYSTERY_TV|TopDevice_|HARPER |HTY-|KANT-|TDTV|PTV\\d\\d|HGTV-)"
  ].join("|"),
  "i"
)

// tablet-only model lines, and codes that lead with a tablet's inches (Digma's "TS1266RW", BQ's "BQ-7098G")
const tabletModel = new RegExp(
  [
    "(?<![a-z])(Tab|Pad|Tablet)(?![a-z])|\\bMID(?![a-z])|\\b(MatePad|MediaPad|iPlay|Nexus (?:7|9|10)|Xoom|Xiaomi Pad)\\b",
    "\\b(Redmi Pad|Lenovo TB|Lenovo YT|Kindle|Nook|NOOK BN\\w+|BNTV\\d+)\\b|\\b[A-Z]{2}[17-9]\\d{3}[A-Z]{2}\\b",
    "^(?:SAMSUNG[-_ ])?(?:SM-[TPX]\\d|GT-P\\d|GT-N[58]\\d|SC-01C|SGH-T849)|^BQ(?:ru)?-?[17-9]\\d{3}",
    "^(?:KF[A-Z]{2,6}|TB-?[XJ0-9]|Lenovo TB|YT-|P0\\d\\d|ME\\d{3}|PMT\\d|BAH\\d?-|AGS\\d?-|AGR-|KOB\\d?-|MRX-|SCMR?-)",
    "^(?:DBY-|BTV-|CMR-|JDN\\d?-|BZT-|KRJ-|HDN-|GOT-|WGR-|OPD\\d|RMX\\d+P?[-_]?PAD|ETAB|TFX|DTA-|ALFA_|Clempad|Surfer)",
    "^(?:TZ\\d|iPlay|Readboy|MFC\\d|WO \\d|iPA\\d|Plane |Optima |Numy|SUPRA M|Hope\\d)",
    "^Lenovo ?(?:[AS]\\d{4}-(?:F|H|FL|HV|GV|GH)\\b|B[68]0\\d\\d|S[56]000)|^Archos ?(?:[7-9]\\d|1\\d\\d)\\b|^BG2-|^Allview ?Viva"
  ].join("|"),
  "i"
)

// large phones and foldables the library reads as tablets, and phone lines without "Mobile" in desktop mode
const phoneModel = new RegExp(
  "^(?:SAMSUNG[-_ ])?(?:SM-[AFGMNS]\\d|GT-[BCEISX]\\d|GT-N[79]\\d{3}|SGH-|SCH-|SHV-|SPH-)|" +
    "^(?:SM-F|Galaxy Z|V2\\d{3}|RMX|CPH|PE[A-Z]{2}\\d\\d|SCG\\d)|" +
    "^(?:Nexus (?:S|One|4|5X?|6P?)|Galaxy Nexus|LG-[A-UW-Z]\\d{3}|XT\\d{3,4})\\b",
  "i"
)

// watches: watchOS, Apple's "Watch6,17", Samsung's SM-R models (not the Gear VR's SM-R32x), "... Watch" models
const wearableMarker =
  /\bwatchOS\b|\bApple Watch\b|\bWatch\d+,\d|\bSM-R(?:38\d|[6-9]\d\d)(?!\d)|; [^;()]*\bWatch\b[^;()]*Build\//

// laptops and mini PCs that run Android or its apps
const laptopModel =
  /Chromebook|EliteBook|ProBook|ZBook|Inspiron|Latitude \d|Vostro|OptiPlex|\bNUC\d|MateBook|VivoBook|ZenBook|ThinkCentre|IdeaCentre/i

const notModel = /^(Linux|U|wv|K|arm(_64)?|mse|Mobile|Tablet|x86|aarch64|[a-z]{2}([-_][A-Za-z]{2})?)$/i
const notModelName = /^(Android|Adr|OS|HMSCore|GMSCore|HarmonyOS|MIUI|Linux|CyanogenMod|LiquidSmooth|AOKP)\b/i

/** The model token of an Android string: "(Linux; Android 9; SM-T510 Build/...)" -> "SM-T510". */
export const androidModel = (ua: string): string | undefined => {
  const comment = /\((?:Linux|Android)[^)]*\)/.exec(ua)?.[0] ?? ""
  const parts = comment.slice(1, -1).split(/;\s*/).reverse()
  const withoutBuild = parts.map((part) => part.replace(/\s*Build\/.*$/, "").trim())
  return withoutBuild.find((part) => part !== "" && !notModel.test(part) && !notModelName.test(part))
}

export type LongTailType = "mobile" | "tablet" | "smarttv" | "desktop"

// outside Android: TV and box makers that make no phones, and boxes' embedded-Linux browsers
const linuxBox = new RegExp(
  "\\b(Hisense|Arris|Humax|Sagemcom|Technicolor|Kaon|Netgem|Netbox|Boxee|kazoku|Changhong|Konka|Loewe|Metz|Grundig|" +
    "Thomson|Telefunken|Vestel|Zeasn|mbxtWebKit|CiscoBrowser|GW-Device|MR-Device)\\b",
  "i"
)

// TV platforms' device triple ("(Vizio, D50u-D1, Wireless)"), Android TV's build tags ("Build/PTT1.190716.001")
const tvTriple = /,\s*(?:wired|wireless)\s*\)|\bBuild\/[P-U]T[A-Z]\d/i

export const isTv = (ua: string, model: string | undefined): boolean =>
  tvMarker.test(ua) ||
  tvTriple.test(ua) ||
  (linuxBox.test(ua) && !/\bAndroid\b/.test(ua)) ||
  (model !== undefined && tvModel.test(model))

// Puffin renders in the cloud; its version's suffix names the system and the device ("Puffin/4.0.4IT")
const puffin = /\bPuffin\/[\d.]+([AILW])([PTD])\b/
const puffinOs: Readonly<Record<string, string>> = { A: "Android", I: "iOS", L: "Linux", W: "Windows" }
const puffinType: Readonly<Record<string, LongTailType>> = { P: "mobile", T: "tablet" }

export const puffinPlatform = (ua: string): { os: string; type: LongTailType | undefined } | undefined => {
  const [, system = "", device = ""] = puffin.exec(ua) ?? []
  return system === "" ? undefined : { os: puffinOs[system] ?? system, type: puffinType[device] }
}

// Android without the word ("Adr 4.2.2", Dalvik, "Andr0id"); a "Build/" up to the next "(Linux;" only, one pass
export const androidUnnamed =
  /\bAdr \d|^Amazon;AFT[A-Z0-9]+;|\bDalvik\/|\(Linux;(?:[^()]|\((?!Linux;))*\bBuild\/|\bAndr0id\b|\bdiordnA\b|^JUC \(Linux; U; \d/

export const isWearable = (ua: string): boolean => /Watch|SM-R/.test(ua) && wearableMarker.test(ua)

export const isMobileOnly = (ua: string): boolean => mobileOnly.test(ua) && !/\bDesktop\b/.test(ua)

export const isFeaturePhone = (ua: string): boolean => featurePhone.test(ua)

/** The class of an Android device by its model name: TVs and boxes, then tablets, then large phones. */
export const androidClass = (ua: string, model: string | undefined): LongTailType | undefined => {
  if (isTv(ua, model)) return "smarttv"
  if (model === undefined) return undefined
  if (laptopModel.test(model)) return "desktop"
  // Huawei names the tablet line in the build tag only: "PLE-701L Build/HuaweiMediaPad"
  if (tabletModel.test(model) || /\bBuild\/\w*MediaPad/.test(ua)) return "tablet"
  if (phoneModel.test(model)) return "mobile"
  return undefined
}
