// An integer flag written as digits only: effect/cli's `Flag.Int` reads any JSON number, so `--count=1e3` was 1000.
import { Option } from "effect"
import { Flag } from "effect/cli"

const DIGITS = /^[+-]?\d{1,16}$/

const wholeNumber = (text: string): Option.Option<number> => {
  const value = Number(text)
  return DIGITS.test(text) && Number.isSafeInteger(value) ? Option.some(value) : Option.none()
}

/** `--name N`: a whole number in digits (`12`, `-5`); `1e3`, `1.0`, `0x10` or a space around it is a usage error. */
export const integerFlag = (name: string) =>
  Flag.String(name).pipe(
    Flag.withMetavar("integer"),
    Flag.filterMap(wholeNumber, () => "a whole number written in digits, such as 12")
  )
