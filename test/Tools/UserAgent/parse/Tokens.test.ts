/**
 * Issue 20: which token names the browser. Each case is a real string from another project's labelled suite, named
 * with its source (browscap/browscap tests/issues, MIT; WhichBrowser/Parser tests/data, MIT; matomo-org/device-detector
 * Tests/fixtures, LGPL-3.0), and asserts that project's label.
 */
import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { UAParser } from "ua-parser-js"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"
import { appExtensions, restoreSpaces } from "../../../../src/Tools/UserAgent/parse/Tokens.ts"

const browser = (ua: string): string => parseUserAgent(ua).browser.name
const summary = (ua: string): string => {
  const info = parseUserAgent(ua)
  return `${info.browser.name} ${info.os.name} ${info.device.type} bot=${info.bot.isBot}`
}

describe("tokens that name no product never outrank a recognised browser", () => {
  test("an add-on's token (toolbar, anonymiser)", () => {
    // browscap issue-1828, issue-096
    const toolbar =
      "Mozilla/5.0 (Windows; U; Windows NT 5.1; de; rv:1.9.0.5) Gecko/2008120122 Firefox/3.0.5 GTB7.1 ,##ProjectID11##7795#### (.NET CLR 3.5.30729)"
    expect(browser(toolbar)).toBe("Firefox")
    expect(browser("Firefox/25.0 (de); anonymized by Abelssoft 1704153795")).toBe("Firefox")
    const anonymised =
      "Mozilla/5.0 (Windows NT 6.1; rv:37.0) Gecko/20100101 Firefox/37.0 anonymized by Abelssoft 385993085"
    expect(browser(anonymised)).toBe("Firefox")
  })

  test("a distribution's name before the browser's token", () => {
    // browscap issue-2132; WhichBrowser desktop/os-linux.yaml
    expect(
      browser("Mozilla/5.0 (X11; U; Linux i686; es-ES; rv:2.0) Gecko/20100101 Linux Mint 16/Petra Firefox/25.0.1.")
    ).toBe("Firefox")
    const redHat =
      "Mozilla/5.0 (X11; U; Linux i686 (x86_64); xx; rv:1.9.2.23) Gecko/20110927 Red Hat/3.6-2.el5_7 Firefox/3.6.23"
    expect(browser(redHat)).toBe("Firefox")
  })

  test("platform tokens: KaiOS, Chromecast's CrKey, HbbTV", () => {
    // browscap issue-1903, issue-1168; Matomo tv.yml
    expect(browser("Mozilla/5.0 (Mobile; ALCATEL4044T; rv:37.0) Gecko/37.0 Firefox/37.0 KaiOS/1.0")).toBe("Firefox")
    const cast =
      "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.75 Safari/537.36 CrKey/1.14.32904"
    expect(browser(cast)).toBe("Chrome")
    const hbbtv =
      "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; LGE/ATMACA/AXEN; AX32DAL540-0276; WEBOS22 03.34.35; W22_K8AP; DTV_C22L;)"
    expect(browser(hbbtv)).toBe("Chrome")
    // Matomo Tests/fixtures/tv-4.yml: a Vizio TV's cast platform
    const vizio =
      "Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.141 Safari/537.36 CrKey/1.0.999999 VIZIO SmartCast(Conjure/NVTA-7.603.31.0-prod FW/7.2-2 Model/VFD40M-0809)"
    expect(browser(vizio)).toBe("Chrome")
  })

  test("a string that lost its parentheses: the model's words are not a product", () => {
    // Matomo Tests/fixtures/smartphone-8.yml
    const bare =
      "Mozilla/5.0 Linux; Android 7.1.1; Land Rover Explore AppleWebKit/537.36 KHTML, like Gecko Chrome/75.0.3770.101 Mobile Safari/537.36"
    expect(browser(bare)).toBe("Chrome")
  })

  test("Freeview Play's FVC token after HbbTV's, and a German anonymiser's words", () => {
    // Matomo Tests/fixtures/tv-2.yml; browscap issue-1448
    const fvc =
      "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; LGE/WALTON/SIMFER; 50SFSW6M; WEBOS22 03.34.35; W22_K8LP; DTV_C22P;) FVC/7.0 (LGE/WALTON/SIMFER; WEBOS22;)"
    expect(browser(fvc)).toBe("Chrome")
    const muzzle =
      "Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/38.0.2125.111 Anonymisiert durch AlMiSoft Browser-Maulkorb 39584203"
    expect(browser(muzzle)).toBe("Chrome")
  })

  test("iOS's Safari fetching as MobileSafari over CFNetwork is Safari", () => {
    // browscap issue-1633
    expect(browser("MobileSafari/600.1.4 CFNetwork/711.3.18 Darwin/14.0.0")).toBe("Safari")
  })

  test("a comment left open by a cut string is still a comment", () => {
    // WhichBrowser tests/data/mobile/os-windowsphone.yaml; browscap issue-865
    expect(
      browser("Mozilla/4.0 (compatible; MSIE 7.0; Windows Phone OS 7.0; Trident/3.1; IEMobile/7.0; NOKIA; Lumia 710")
    ).toBe("IE")
    expect(browser("Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0; like Gecko")).toBe("IE")
  })

  test("Chrome for Android's old CrMo token is Chrome", () => {
    // browscap issue-000-mobiles
    const crmo =
      "Mozilla/5.0 (Linux; U; Android 4.0.3; de-de; GT-I9100 Build/IML74K) AppleWebKit/535.7 (KHTML, like Gecko) CrMo/16.0.912.77 Mobile Safari/535.7"
    expect(browser(crmo)).toBe("Chrome")
  })

  test("a Windows Mobile handset's model token beside IE's, but not an iPhone app's name", () => {
    // browscap issue-1393, issue-1612
    const htc =
      "Mozilla/4.0 (compatible; MSIE 6.0; Windows CE; IEMobile 6.12) PPC; 240x320; HTC_P3600/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1"
    expect(browser(htc)).toBe("IE")
    const app =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 9_3_2 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Mobile/13F61 Camera360/7.3.3"
    expect(browser(app)).toBe("Camera360")
  })

  test("a product token outside those classes still names the app that sent the string", () => {
    // browscap issue-1048 (Baidu Tieba's in-app browser)
    const tieba =
      "Mozilla/5.0 (Linux; Android 4.4.2; L50u Build/17.1.1.F.0.43) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36 tieba/7.8.0"
    expect(browser(tieba)).toBe("tieba")
  })
})

describe("a browser that names itself with its own token", () => {
  test("an unrecognised token after Edge's never outranks Edge; a recognised browser or app after it does", () => {
    // issue 20's first example
    const herring =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.0.0 Safari/537.36 Edg/103.0.1264.77 Herring/96.1.6950.51"
    expect(parseUserAgent(herring).browser).toEqual({ name: "Edge", version: "103.0.1264.77" })
    // test/fixtures/labelled-user-agents.jsonl (Teams on Edge's WebView2); browscap issue-1495
    const teams =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0 Teams/24004.1307.2669.7070"
    expect(browser(teams)).toBe("Teams")
    const qq =
      "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/46.0.2486.0 Safari/537.36 Edge/13.10565 QQBrowser/8.2.3638.400"
    expect(browser(qq)).toBe("QQBrowser")
  })
})

describe("unrecognised tokens, as a property", () => {
  test("no token the library does not know, with any version, outranks Edge's own", () => {
    const edge =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.0.0 Safari/537.36 Edg/103.0.1264.77"
    // names of consonants only: few browsers or apps have one, and those the parser knows alone are left out below
    const name = fc.stringMatching(/^[B-DF-HJ-NP-TV-Z][b-df-hj-np-tv-z]{2,9}$/)
    const version = fc.array(fc.nat({ max: 9999 }), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("."))
    fc.assert(
      fc.property(name, version, (product, v) => {
        // "Ddg" (DuckDuckGo), "Jlynx", "Flrp" (Flip Player): a token the library and its app extensions know may
        fc.pre(new UAParser(`${product}/${v}`, appExtensions).getBrowser().name === undefined)
        const info = parseUserAgent(`${edge} ${product}/${v}`)
        // a bot's word among the consonants ("Brss": isbot's "rss") makes a bot, reported as itself
        fc.pre(!info.bot.isBot)
        expect(info.browser.name).toBe("Edge")
      })
    )
  })
})

describe("a Windows Mobile handset's words beside IE's comment", () => {
  test("are the handset's and its carrier's, not a product; a browser the library knows still is", () => {
    // WhichBrowser tests/data/mobile/os-windowsmobile.yaml; browscap issue-841
    expect(browser("Mozilla/4.0 (compatible; MSIE 6.0; Windows CE; IEMobile 7.7) HTC/X03HT")).toBe("IE")
    expect(browser("Mozilla/4.0 (compatible; MSIE 6.0; Windows CE; IEMobile 8.12; MSIEMobile 6.0) T-Mobile_LEO")).toBe(
      "IE"
    )
    // WhichBrowser tests/data/mobile/browser-uc.yaml: UC Browser's own token after the comment
    expect(browser("HTC_HD2_T8585 Mozilla/4.0 (compatible; MSIE 4.01; Windows CE; PPC)/UC Browser7.8.0.95")).toBe(
      "UCBrowser"
    )
  })
})

describe("the families' own tokens under other names", () => {
  test("Google TV's 'Large Screen Safari', Firefox's Aurora channel, a distribution's name", () => {
    // browscap issue-341; WhichBrowser tests/data/desktop/browser-firefox.yaml and os-linux.yaml
    const googleTv =
      "Mozilla/5.0 (X11; Linux i686) AppleWebKit/534.24 (KHTML, like Gecko) Chrome/11.0.696.77 Large Screen Safari/534.24 GoogleTV/092754"
    expect(browser(googleTv)).toBe("Chrome")
    expect(browser("Mozilla/5.0 (X11; Linux x86_64; rv:20.0) Gecko/20130117 Firefox/20.0 Aurora/20.0a2")).toBe(
      "Firefox"
    )
    const turbo = "Mozilla/5.0 (X11; U; Linux i686; xx; rv:1.9.1.11) Gecko/20100728 Turbolinux/3.5.11-1 Firefox/3.5.11"
    expect(browser(turbo)).toBe("Firefox")
    const mandriva =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) OpenMandriva Chromium/34.0.1847.134 Chrome/34.0.1847.134 Safari/537.36"
    expect(browser(mandriva)).toBe("Chrome")
  })
})

describe("shells around IE name themselves inside IE's comment", () => {
  test("a browser's or explorer's name, or AOL's, in the comment; IE's own add-on tokens are not one", () => {
    // browscap issue-900, issue-1219
    const acoo =
      "Mozilla/5.0 (compatible; MSIE 8.0; Windows NT 6.0; Trident/4.0; Acoo Browser 1.98.744; .NET CLR 3.5.30729)"
    expect(browser(acoo)).toBe("Acoo Browser")
    expect(
      browser("Mozilla/5.0 (compatible; MSIE 10.0; AOL 9.7; AOLBuild 4343.55; Windows NT 6.1; WOW64; Trident/8.0)")
    ).toBe("AOL")
    const plain = "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; .NET CLR 2.0.50727; InfoPath.2)"
    expect(browser(plain)).toBe("IE")
  })

  test("a shell's name led by digits, or as a product token with its version (issue 37)", () => {
    // browscap issue-1555; WhichBrowser tests/data/desktop/browser-other.yaml and browser-qq.yaml
    const explorer =
      "Mozilla/5.0 (Windows NT 6.2; WOW64; Trident/7.0; LCJB; rv:11.0; 2345Explorer 3.5.0.12816) like Gecko"
    expect(parseUserAgent(explorer).browser).toEqual({ name: "2345Explorer", version: "3.5.0.12816" })
    expect(
      browser("Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; BTRS122335; 126BROWSER; .NET CLR 2.0.50727)")
    ).toBe("126BROWSER")
    const qq = "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; .NET4.0C; .NET4.0E; QQBrowser/7.7.25715.400)"
    expect(parseUserAgent(qq).browser).toEqual({ name: "QQBrowser", version: "7.7.25715.400" })
    // browscap issue-1393: Windows Phone's own "WebBrowser/8.1" is IE itself
    const lumia =
      "Mozilla/5.0 (Windows Phone 8.1; ARM; Trident/8.0; Touch; rv:11.0; WebBrowser/8.1; IEMobile/11.0; NOKIA; Lumia 635) like Gecko"
    expect(browser(lumia)).toBe("IE")
  })

  test("Trident alone names IE 11 where the library names nothing (issue 37)", () => {
    // browscap issue-1846: the comment's items out of the usual order
    const ua = "Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:11.0; Trident/7.0) like Gecko"
    expect(parseUserAgent(ua).browser).toEqual({ name: "IE", version: "11.0" })
  })
})

describe("a browser's own tokens under other names", () => {
  test("Firefox's code-named builds are Firefox, unless another browser names itself", () => {
    // browscap issue-1381, issue-900
    expect(browser("Mozilla/5.0 (BeOS; U; Haiku BePC; en-US; rv:1.8.1.21pre) Gecko/20090227 BonEcho/2.0.0.21pre")).toBe(
      "Firefox"
    )
    expect(
      browser("Mozilla/5.0 (X11; U; Linux i686; en; rv:1.8.1.1) Gecko/20070117 Epiphany/2.16 BonEcho/2.0.0.1")
    ).toBe("Epiphany")
  })

  test("a vendor's Chromium-based stock browser is not the Chrome WebView; KitKat's WebView is", () => {
    // browscap issue-1413; WhichBrowser android-browser.yaml
    const samsung =
      "Mozilla/5.0 (Linux; Android 4.4.4; fa-ir; SAMSUNG SM-A500H Build/KTU84P) AppleWebKit/537.36 (KHTML, like Gecko) Version/1.6 Chrome/28.0.1500.94 Mobile Safari/537.36"
    expect(browser(samsung)).not.toBe("Chrome")
    const webView =
      "Mozilla/5.0 (Linux; Android 4.4.2; Nexus 5 Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36"
    expect(browser(webView)).toBe("Chrome")
  })

  test("IE Mobile 11 on Windows Phone 8.1 says 'like iPhone OS': it stays IE on Windows Phone", () => {
    // WhichBrowser mobile/os-windowsphone.yaml; browscap issue-1629 (UC Browser's token after it names UC)
    const lumia =
      "Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; NOKIA; Lumia 920) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile Safari/537"
    expect(summary(lumia)).toBe("IE Windows Phone Mobile bot=false")
    expect(browser(`${lumia} UCBrowser/4.2.1.541 Mobile`)).toBe("UCBrowser")
  })
})

describe("the first iPhones and iPads", () => {
  test("'CPU like Mac OS X' and 'CPU OS 3_2' are iOS, and AppleWebKit/420+ there is Safari", () => {
    // browscap issue-1645
    const first =
      "Mozilla/5.0 (iPhone; U; CPU like Mac OS X; en) AppleWebKit/420+ (KHTML, like Gecko) Version/3.0 Mobile/1A543a Safari/419.3"
    expect(summary(first)).toBe("Safari iOS Mobile bot=false")
    const ipad =
      "Mozilla/5.0 (iPad; U; CPU OS 3_2 like Mac OS X; de-de) AppleWebKit/531.21.10 (KHTML, like Gecko) Version/4.0.4 Mobile/7W367a Safari/531.21.10"
    expect(summary(ipad)).toBe("Safari iOS Tablet bot=false")
    const unnamed =
      "Mozilla/5.0 (iPhone; U; CPU iPhone OS (null) like Mac OS X; en-us) AppleWebKit/528.18 (KHTML, like Gecko) Version/4.0 Mobile/7A341 Safari/528.16"
    expect(parseUserAgent(unnamed).os.name).toBe("iOS")
  })
})

describe("real browsers that looked like bots", () => {
  test("a browser's string without its spaces is that browser", () => {
    const chrome =
      "Mozilla/5.0(WindowsNT10.0;Win64;x64)AppleWebKit/537.36(KHTML,likeGecko)Chrome/138.0.0.0Safari/537.36"
    expect(restoreSpaces(chrome)).toBe(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36"
    )
    expect(summary(chrome)).toBe("Chrome Windows Desktop bot=false")
    const iphone =
      "Mozilla/5.0(iPhone;CPUiPhoneOS17_5likeMacOSX)AppleWebKit/605.1.15(KHTML,likeGecko)Version/17.5Mobile/15E148Safari/604.1"
    expect(summary(iphone)).toBe("Safari iOS Mobile bot=false")
    // a string with spaces, or not a browser's, is left as it is
    expect(restoreSpaces("curl/8.4.0")).toBe("curl/8.4.0")
  })

  test("a phone whose model name has a bot's word in it is a person", () => {
    // Matomo Tests/fixtures/smartphone-28.yml, browscap issue-2043; a crawler in that place stays a crawler
    const xbot =
      "Mozilla/5.0 (Linux; Android 8.1.0; XBot Junior) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.101 Mobile Safari/537.36"
    expect(summary(xbot)).toBe("Chrome Android Mobile bot=false")
    const mbot =
      "Mozilla/5.0 (Linux; Android 7.0; M bot 51 Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/56.0.2924.87 Mobile Safari/537.36"
    expect(summary(mbot)).toBe("Chrome Android Mobile bot=false")
    // crawler-user-agents: Google's Play Store crawler puts its token where the model goes
    const storebot =
      "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36"
    expect(parseUserAgent(storebot).bot.isBot).toBe(true)
  })

  test("a format isbot flags only by its shape is the browser the library names in it", () => {
    // Matomo Tests/fixtures/phablet-1.yml (UC Browser's compact format), browscap issue-291 and issue-513
    const uc = "dv(iPh7,1);pr(UCBrowser/11.3.5.1203);ov(12_5_6);ss(414x736);bt(GJ);pm(0);bv(0);nm(0);im(0);nt(2);"
    expect(parseUserAgent(uc).bot.isBot).toBe(false)
    expect(browser(uc)).toBe("UCBrowser")
    expect(parseUserAgent("Dillo/2.1.1").bot.isBot).toBe(false)
    const juc = "JUC(Linux;U;Android4.2.2;Zh_cn;GT-I9060;480*800;)UCWEB7.8.0.95/139/355"
    expect(parseUserAgent(juc).bot.isBot).toBe(false)
    // a bot's name still makes one (crawler-user-agents), and a bare "Mozilla/5.0", which names no browser, stays what
    // isbot's catch-all makes it (the garbage case of Normalise.test.ts: Unknown everywhere)
    expect(parseUserAgent("Googlebot/2.1 (+http://www.google.com/bot.html)").bot.isBot).toBe(true)
    expect(parseUserAgent("Mozilla/5.0").bot.isBot).toBe(true)
  })

  test("an add-on's token is not a bot's name", () => {
    // browscap issue-2043 (a filtering proxy's token: "HTTPS" inside it is not a fetcher's "http")
    const icap =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/57.0.2987.133 Safari/537.36 ICAPoHTTPS"
    expect(summary(icap)).toBe("Chrome Windows Desktop bot=false")
  })

  test("an app's reverse-domain id is the app, not its maker's crawler", () => {
    // browscap issue-096; Matomo Tests/fixtures/mobile_apps.yml
    const plus =
      "Mozilla/5.0 (iPhone5,2; iPhone; U; CPU OS 7_0_4 like Mac OS X; it_IT) com.google.GooglePlus/29676 (KHTML, like Gecko) Mobile/N42AP (gzip)"
    expect(summary(plus)).toBe("com.google.GooglePlus iOS Mobile bot=false")
    const youtube = "com.google.android.youtube/2.4.4(Linux; U; Android 2.3.5; en_US; SCH-I500 Build/GINGERBREAD) gzip"
    expect(parseUserAgent(youtube).bot.isBot).toBe(false)
  })

  test("Google's TV platform is not Google's crawler", () => {
    // browscap issue-341
    const googleTv =
      "Mozilla/5.0 (Linux; GoogleTV 3.2; NSZ-GS7/GX70 Build/MASTER) AppleWebKit/534.24 (KHTML, like Gecko) Chrome/11.0.696.77 Safari/534.24"
    expect(summary(googleTv)).toBe("Chrome Android SmartTV bot=false")
  })

  test("Windows' feed platform sends IE's comment: IE on Windows, not a bot", () => {
    expect(summary("Windows-RSS-Platform/2.0 (MSIE 9.0; Windows NT 6.1)")).toBe("IE Windows Desktop bot=false")
  })
})

describe("device class by the string's own words", () => {
  const device = (ua: string): string => parseUserAgent(ua).device.type

  test("tablet lines whose browser says 'Mobile': Huawei BG2, Lenovo's numbered tablets, Archos 70 and up", () => {
    // Matomo Tests/fixtures/tablet-2.yml and tablet.yml; browscap issue-2132
    expect(
      device(
        "Mozilla/5.0 (Linux; Android 7.0; BG2-U01) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.76 Mobile Safari/537.36"
      )
    ).toBe("Tablet")
    expect(
      device(
        "Mozilla/5.0 (Linux; U; Android 4.2.2; pl-pl; Lenovo B8000-H/JDQ39) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.2.2 Mobile Safari/534.30"
      )
    ).toBe("Tablet")
    expect(
      device(
        "Mozilla/5.0 (Linux; U; Android 4.2.2; de-de; Archos 70 Xenon Build/JDQ39) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30"
      )
    ).toBe("Tablet")
    // Archos's phones (50, 5 inches) stay phones
    expect(
      device(
        "Mozilla/5.0 (Linux; Android 4.2.2; Archos 50 Titanium Build/JDQ39) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/43.0.2357.92 Mobile Safari/537.36"
      )
    ).toBe("Mobile")
  })

  test("OTT boxes with a Mobile token, and set-top boxes on Linux by their maker, are TVs", () => {
    // Matomo Tests/fixtures/tv-4.yml and tv-3.yml
    expect(
      device(
        "Mozilla/5.0 (Linux; Android 11; OTT Xview AV1 Build/RTT0.210829.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.186 Mobile Safari/537.36"
      )
    ).toBe("SmartTV")
    expect(device("Opera/9.80 (Linux armv7l; Sagemcom-OTT-DTIW384 VF) Presto/2.12.407 Version/12.51")).toBe("SmartTV")
    // browscap issue-1378; Matomo Tests/fixtures/tv-3.yml (Sky's box)
    const boxee = "Mozilla/5.0 (X11; U; Linux i686; en-US) AppleWebKit/533.4 (KHTML, like Gecko) Boxee/1.0.1 bxapi/7.1"
    expect(device(boxee)).toBe("SmartTV")
    const sky =
      "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.6.0 Chrome/45.0.2454.101 Safari/537.36 GW-Device/1.0.0 (Sky, ES140, )"
    expect(device(sky)).toBe("SmartTV")
  })
})

describe("the system a string names in its own way", () => {
  const os = (ua: string): string => {
    const info = parseUserAgent(ua)
    return `${info.os.name} ${info.device.type}`
  }

  test("360's Aphone browser is an Android phone, whatever desktop it claims", () => {
    // WhichBrowser tests/data/mobile/browser-360.yaml
    const aphone =
      "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.118 Safari/537.36; 360 Aphone Browser (2.0.1beta)"
    expect(os(aphone)).toBe("Android Mobile")
  })

  test("Opera Mobile on a Pocket PC's Windows is Windows Mobile, a phone (issue 37)", () => {
    // browscap issue-1396, WhichBrowser tests/data/mobile/os-windowsmobile.yaml
    expect(os("Opera/9.5 (Microsoft Windows; PPC; Opera Mobi/1938; U; xx)")).toBe("Windows Mobile Mobile")
  })

  test("a PowerPC Mac in a CFNetwork string, and Red Hat, are desktops of their family", () => {
    // Matomo Tests/fixtures/desktop.yml; WhichBrowser tests/data/desktop/browser-firefox.yaml
    expect(os("Safari5533.22.3 CFNetwork/438.16 Darwin/9.8.0 (Power Macintosh) (PowerMac7,2)")).toBe("macOS Desktop")
    expect(os("Mozilla/5.0 (X11; Scientific Linux x86_64; rv:17.0) Red Hat/6.4 Gecko/20130917 Firefox/17.0")).toBe(
      "Linux Desktop"
    )
  })
})
