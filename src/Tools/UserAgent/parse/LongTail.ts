/**
 * The long tail of devices that ua-parser-js leaves without a type or types by the "Mobile" word alone: feature
 * phones, Android TVs and set-top boxes, tablets whose browser says "Mobile", speakers and cameras, Android named in
 * odd ways, Puffin's cloud-rendered strings. Token tables rather than per-string rules: each marker is a naming
 * convention of a platform or a vendor's model line, checked against Matomo's, WhichBrowser's and browscap's labelled
 * fixtures (`scripts/README.md`).
 */

/** WAP, J2ME, BREW and vendor feature-phone platforms: no smartphone or desktop browser sends these. */
const featurePhone = new RegExp(
  "\\b(" +
    "MIDP|CLDC|J2ME|UP\\.Browser|UP\\.Link|WAP|MAUI|Obigo|Teleca|BREW|REX|MRE|Mocor|NetFront|Opera Mini|UCWEB|" +
    "jig browser|DoCoMo|KDDI|SoftBank|Vodafone|SonyEricsson|Nokia|Series ?[346]0|S40|Symbian|SymbOS|BlackBerry|" +
    "BB10|Bada|KaiOS|Polaris|Dolfin|PalmOS|PalmSource|Windows CE|IEMobile|Opera Mobi|Smartphone|Profile\\/MIDP|" +
    "MMP\\/|Tizen|Maemo|MeeGo|Sailfish|Firefox OS" +
    ")\\b|^(" +
    "SAMSUNG|SEC|Sagem|SIE|MOT|LG|LGE|Alcatel|ZTE|Huawei|Lenovo|Fly|Karbonn|Micromax|Philips|Panasonic|Sharp|Sanyo|" +
    "Sendo|NEC|Haier|Spice|Lava|Itel|Tecno|QMobile|Cricket|AIRNESS|Amoi|BenQ|Vertu" +
    ")[-_ ]?[A-Z0-9]",
  "i"
)

/**
 * Browsers and platforms that exist on handsets only, whatever system the string names: Opera Mini and UC Browser's
 * Java and proxy editions send "(Linux; U; ...)" or "(Windows; U; ...)" from phones.
 */
const mobileOnly = /\b(Opera Mini|UCWEB|J2ME|Profile\/MIDP|Configuration\/CLDC)\b/

/**
 * Devices that browse but are none of the API's other classes: Sonos speakers ("ZP" models; not the Sonos app on a
 * phone or a Mac), Amazon Echo speakers ("AEO" models), Samsung's and Nikon's Android cameras, Samsung's Family Hub
 * fridge, car head units.
 */
const embeddedMarker = new RegExp(
  "\\bSonos\\/[\\d.-]+ \\(ZP|\\b(QtCarBrowser|CarPad|KZCAR|Family ?Hub|COOLPIX)\\b|" +
    "\\b(?:SAMSUNG )?EK-G[CN]\\d|\\bDMC-CM\\d|; AEO[A-Z]{2}[;) ]"
)

/** Smart TVs, set-top boxes, streaming sticks and signage players, in the string or the Android model name. */
const tvMarker = new RegExp(
  "\\b(" +
    "TV|ATV|wv-atv|Android ?TV|Google ?TV|SmartTV|Smart-?TV|SMART_TV|HbbTV|NetCast|BRAVIA|AFT[A-Z0-9]+|Roku|" +
    "BrightSign|CrKey|HiSTB\\w*|Nexus Player|Chromecast|MiBOX|MiTV|AQUOS-TV\\w*|Web0S|webOS\\.TV|VIDAA|Opera TV|" +
    "OMI\\/|Espial|Hybridcast|InettvBrowser|DTV|IPTV|STB|TVBox|Freebox|Viera|REGZA|PhilipsTV|Maple|SmartHub|DirectFB|" +
    "Kylo|PlayStation Vue|" +
    "Apple ?TV|AppleTV|tvOS|NETTV|CE-HTML|TiVo|TiviMate|Linux (?:mips|sh4)" +
    ")\\b",
  "i"
)

// An Android model name that says it is a box, a stick or a screen: "Smotreshka Box 115NA", "TOUCAN Stick 4K",
// "Digma Shell LC430DUY" (Russian TV chassis); a panel type and its size in inches ("TF-LED40S63T2S",
// "SM-QLED50T2SU"); a size leading a TV maker's code ("43U600KD", "32TP1HDTA1"; not 70, a tablet's 7.0 inches);
// Android box makers (Zidoo, Vontar, MyGica...) and the codes of their boxes (X96, H96, T95...); the model prefixes
// of Russian and Turkish TV brands, which put Android TV in every set
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

/**
 * Android tablets whose browser still says "Mobile": model lines that are tablets only, and codes that lead with a
 * tablet's screen size: Digma's "TS1266RW" (two letters, 7 to 19 inches, three digits, two letters), BQ's "BQ-7098G"
 * (its phones are BQ-4xxx to BQ-6xxx).
 */
const tabletModel = new RegExp(
  [
    "(?<![a-z])(Tab|Pad|Tablet)(?![a-z])|\\bMID(?![a-z])|\\b(MatePad|MediaPad|iPlay|Nexus (?:7|9|10)|Xoom|Xiaomi Pad)\\b",
    "\\b(Redmi Pad|Lenovo TB|Lenovo YT|Kindle|Nook|NOOK BN\\w+|BNTV\\d+)\\b|\\b[A-Z]{2}[17-9]\\d{3}[A-Z]{2}\\b",
    "^(?:SAMSUNG[-_ ])?(?:SM-[TPX]\\d|GT-P\\d|GT-N[58]\\d|SC-01C|SGH-T849)|^BQ(?:ru)?-?[17-9]\\d{3}",
    "^(?:KF[A-Z]{2,6}|TB-?[XJ0-9]|Lenovo TB|YT-|P0\\d\\d|ME\\d{3}|PMT\\d|BAH\\d?-|AGS\\d?-|AGR-|KOB\\d?-|MRX-|SCMR?-)",
    "^(?:DBY-|BTV-|CMR-|JDN\\d?-|BZT-|KRJ-|HDN-|GOT-|WGR-|OPD\\d|RMX\\d+P?[-_]?PAD|ETAB|TFX|DTA-|ALFA_|Clempad|Surfer)",
    // tablet-only brands and lines: Teclast's TZ, Alldocube's iPlay, Digma's Optima and Plane, Readboy's study pads
    "^(?:TZ\\d|iPlay|Readboy|MFC\\d|WO \\d|iPA\\d|Plane |Optima |Numy|SUPRA M|Hope\\d)",
    // Lenovo's tablets by number (IdeaTab A3000-H, A7600-F, Yoga B8000; its phones have three digits or no suffix),
    // Archos's by screen size (70 to 101; its phones are 40 to 55), Huawei's BG2 (MediaPad T3 7), Allview's Viva
    "^Lenovo ?(?:[AS]\\d{4}-(?:F|H|FL|HV|GV|GH)\\b|B[68]0\\d\\d|S[56]000)|^Archos ?(?:[7-9]\\d|1\\d\\d)\\b|^BG2-|^Allview ?Viva"
  ].join("|"),
  "i"
)

/**
 * Large phones and foldables that ua-parser-js's generic rule reads as tablets, and phone lines whose browser leaves
 * "Mobile" out in its desktop mode: Google's Nexus phones, Samsung's Galaxy Note phones (GT-N7xxx, GT-N9xxx; the
 * Note tablets are GT-N5xxx and GT-N8xxx), LG's phones (its G Pad tablets are LG-V), Motorola's XT phones.
 */
const phoneModel = new RegExp(
  "^(?:SAMSUNG[-_ ])?(?:SM-[AFGMNS]\\d|GT-[BCEISX]\\d|GT-N[79]\\d{3}|SGH-|SCH-|SHV-|SPH-)|" +
    "^(?:SM-F|Galaxy Z|V2\\d{3}|RMX|CPH|PE[A-Z]{2}\\d\\d|SCG\\d)|" +
    "^(?:Nexus (?:S|One|4|5X?|6P?)|Galaxy Nexus|LG-[A-UW-Z]\\d{3}|XT\\d{3,4})\\b",
  "i"
)

/**
 * Watches by their own tokens: Apple's watchOS and its "Watch6,17" model names, Samsung's Gear and Galaxy Watch
 * models (SM-R380 and SM-R600 to SM-R9xx; the Gear VR headsets are SM-R32x), Android watches named "... Watch".
 */
const wearableMarker =
  /\bwatchOS\b|\bApple Watch\b|\bWatch\d+,\d|\bSM-R(?:38\d|[6-9]\d\d)(?!\d)|; [^;()]*\bWatch\b[^;()]*Build\//

// Laptops and desktops that run Android apps or Android itself: Chromebooks, and the makers' laptop and mini-PC
// lines ("HP EliteBook 820 G2", "Inspiron 5567", "NUC10i3FNH")
const laptopModel =
  /Chromebook|EliteBook|ProBook|ZBook|Inspiron|Latitude \d|Vostro|OptiPlex|\bNUC\d|MateBook|VivoBook|ZenBook|ThinkCentre|IdeaCentre/i

/** The model token of an Android string: "(Linux; Android 9; SM-T510 Build/...)" -> "SM-T510". */
export const androidModel = (ua: string): string | undefined => {
  const comment = /\((?:Linux|Android)[^)]*\)/.exec(ua)?.[0] ?? ""
  const parts = comment.slice(1, -1).split(/;\s*/)
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = (parts[i] ?? "").replace(/\s*Build\/.*$/, "").trim()
    if (
      part === "" ||
      /^(Linux|U|wv|K|arm(_64)?|mse|Mobile|Tablet|x86|aarch64|[a-z]{2}([-_][A-Za-z]{2})?)$/i.test(part)
    )
      continue
    // system and custom-ROM names ("CyanogenMod-10.1") after the model are not the model
    if (/^(Android|Adr|OS|HMSCore|GMSCore|HarmonyOS|MIUI|Linux|CyanogenMod|LiquidSmooth|AOKP)\b/i.test(part)) continue
    return part
  }
  return undefined
}

export type LongTailType = "mobile" | "tablet" | "smarttv" | "desktop"

// Outside Android, the makers of TVs and set-top boxes that make no phones, and the embedded-Linux browsers of boxes
// (Cisco's and Metrological's WebKit builds, Sky's "GW-Device")
const linuxBox = new RegExp(
  "\\b(Hisense|Arris|Humax|Sagemcom|Technicolor|Kaon|Netgem|Netbox|Boxee|kazoku|Changhong|Konka|Loewe|Metz|Grundig|" +
    "Thomson|Telefunken|Vestel|Zeasn|mbxtWebKit|CiscoBrowser|GW-Device|MR-Device)\\b",
  "i"
)

// The device triple TV platforms append for video services ("(Vizio, D50u-D1, Wireless)"), and the build tags of
// Android TV's releases since Android 9, a "T" after the release letter ("Build/PTT1.190716.001", "Build/RTT0...")
const tvTriple = /,\s*(?:wired|wireless)\s*\)|\bBuild\/[P-U]T[A-Z]\d/i

/** A TV marker anywhere, a TV or box maker's name outside Android, or a model named like a TV, box or stick. */
export const isTv = (ua: string, model: string | undefined): boolean =>
  tvMarker.test(ua) ||
  tvTriple.test(ua) ||
  (linuxBox.test(ua) && !/\bAndroid\b/.test(ua)) ||
  (model !== undefined && tvModel.test(model))

// Puffin renders in the cloud and sends a Linux desktop's string; its version's suffix says what really runs it:
// the system (Android, iOS, Windows, Linux) and the device (Phone, Tablet, Desktop), "Puffin/4.0.4IT" an iPad.
const puffin = /\bPuffin\/[\d.]+([AILW])([PTD])\b/
const puffinOs: ReadonlyMap<string, string> = new Map([
  ["A", "Android"],
  ["I", "iOS"],
  ["L", "Linux"],
  ["W", "Windows"]
])
const puffinType: ReadonlyMap<string, LongTailType> = new Map([
  ["P", "mobile"],
  ["T", "tablet"]
])

/** The system and device class behind a Puffin string (no class for a desktop), or undefined for other strings. */
export const puffinPlatform = (ua: string): { os: string; type: LongTailType | undefined } | undefined => {
  const [, system = "", device = ""] = puffin.exec(ua) ?? []
  return system === "" ? undefined : { os: puffinOs.get(system) ?? system, type: puffinType.get(device) }
}

// Android under another name: UC Browser's "Adr 4.2.2" and "JUC (Linux; U; 2.3.5; ...)", the Dalvik VM, a "Build/"
// tag inside a Linux comment ("(Linux; U; de-de; GT-I9100 Build/GINGERBREAD)"), Fire TV apps' "Amazon;AFTT;...", and
// strings spelt to dodge filters ("Andr0id", "diordnA")
// (a comment's "Build/" is looked for up to the next "(Linux;", where the next search starts: one pass, not one to
// the comment's end from each of a long string's "(Linux;")
const androidUnnamed =
  /\bAdr \d|^Amazon;AFT[A-Z0-9]+;|\bDalvik\/|\(Linux;(?:[^()]|\((?!Linux;))*\bBuild\/|\bAndr0id\b|\bdiordnA\b|^JUC \(Linux; U; \d/

/** Android named without the word, or spelt another way. */
export const isAndroidUnnamed = (ua: string): boolean => androidUnnamed.test(ua)

/** A watch by its platform's, maker's or model's token. */
export const isWearable = (ua: string): boolean => /Watch|SM-R/.test(ua) && wearableMarker.test(ua)

/** A speaker, camera, fridge or car unit by its own token or model. */
export const isEmbedded = (ua: string): boolean => embeddedMarker.test(ua)

/** A browser or platform that runs on handsets only. */
export const isMobileOnly = (ua: string): boolean => mobileOnly.test(ua) && !/\bDesktop\b/.test(ua)

/** A feature phone or other non-Android handset, told by its platform's tokens. */
export const isFeaturePhone = (ua: string): boolean => featurePhone.test(ua)

/**
 * The device class of an Android string by its model name, where the string's own "Mobile" word is unreliable:
 * TVs and boxes first, then tablet model lines, then large phones; undefined when the model says nothing.
 */
export const androidClass = (ua: string, model: string | undefined): LongTailType | undefined => {
  if (isTv(ua, model)) return "smarttv"
  if (model === undefined) return undefined
  if (laptopModel.test(model)) return "desktop"
  // Huawei names the tablet line in the build tag only: "PLE-701L Build/HuaweiMediaPad"
  if (tabletModel.test(model) || /\bBuild\/\w*MediaPad/.test(ua)) return "tablet"
  if (phoneModel.test(model)) return "mobile"
  return undefined
}
