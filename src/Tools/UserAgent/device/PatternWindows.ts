/** The windows a text is filed under (see `Filing` in PatternIndex.ts), and the ones too common to file under. */

// a window of three or two characters as its key (see `Filing`)
export const gram = (s: string, i: number): number =>
  ((s.charCodeAt(i) & 0xff) << 16) | ((s.charCodeAt(i + 1) & 0xff) << 8) | (s.charCodeAt(i + 2) & 0xff)
export const pair = (s: string, i: number): number =>
  0x1000000 | ((s.charCodeAt(i) & 0xff) << 8) | (s.charCodeAt(i + 1) & 0xff)

// what nearly every browser's string carries: a text is filed under a window of it outside these, where it has one
export const COMMON = new Set<number>()
for (const word of [
  "mozilla/5.0 (linux; android 10; k) applewebkit/537.36 (khtml, like gecko) chrome/120.0.0.0 mobile safari/537.36",
  "mozilla/5.0 (linux; u; android 4.4.2; en-us; build/kot49h) applewebkit/534.30 version/4.0 mobile safari/534.30 wv)",
  "mozilla/5.0 (windows nt 10.0; win64; x64; rv:109.0) gecko/20100101 firefox/119.0 edg/120.0.0.0 opr/105.0.0.0",
  "mozilla/5.0 (macintosh; intel mac os x 10_15_7) (iphone; cpu iphone os 17_4 like mac os x) (ipad; x11; ubuntu)",
  "android 4.4; android 5.0; android 6.0; android 7.0; android 8.0; android 9; android 11; android 12; android 13",
  "android 14; android 15; android 16; version/17.4 chrome/131.0 firefox/134.0 safari/605.1.15",
  "0 build/ 1 build/ 2 build/ 3 build/ 4 build/ 5 build/ 6 build/ 7 build/ 8 build/ 9 build/ a build/ e build/",
  "samsungbrowser/23.0 ucbrowser/13.4 opera mini/ presto/2.12 mobile/15e148 trident/7.0; msie 9.0; .net clr"
])
  for (let i = 0; i + 2 < word.length; i++) COMMON.add(gram(word, i))

/** Whether every window of a text is common (a two-character text counts as common). */
export const isCommon = (text: string): boolean => {
  if (text.length === 2) return true
  for (let i = 0; i + 2 < text.length; i++) if (!COMMON.has(gram(text, i))) return false
  return true
}
