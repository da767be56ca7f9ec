/** What a client sent, echoed in an error message at most this long (in code points): an error never outgrows its request. */
export const MAX_ECHO = 64

export const clip = (value: string): string => {
  if (value.length <= MAX_ECHO) return value
  const points = [...value]
  return points.length <= MAX_ECHO ? value : `${points.slice(0, MAX_ECHO).join("")}…`
}
