// One copy of each equal text kept by the command: many agents share an answer (the same browser, version and device),
// and a realistic log's 52,000 distinct agents have 26,000 distinct answers. A slot a text's hash, a newer text
// replacing an older one in its slot, so it is bounded in slots and costs one hash a new agent, none a line.
import { detached } from "../Detached.ts"

/** `slots` 0 keeps none: each text is its own copy. */
export const makeInterned = (slots: number) => {
  const kept: Array<string | undefined> = new Array(slots).fill(undefined)
  /** The kept copy equal to `text`, or a copy of `text` of its own (kept from now on in its slot). */
  return (text: string): string => {
    if (slots === 0) return detached(text)
    const slot = Bun.hash.cityHash32(text) % slots
    const known = kept[slot]
    if (known === text) return known
    const copy = detached(text)
    kept[slot] = copy
    return copy
  }
}
