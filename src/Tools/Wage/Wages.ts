/**
 * The wage calculator as a service: the rules and the maths are pure (`Wage.ts`); this is its seam for handlers, the
 * command line and tests. An amount is its decimal text (`"25"`, `"1.005"`), or a number.
 */
import { Context, Effect, Layer } from "effect"
import type { InvalidValue } from "../../Errors.ts"
import { type Estimates, estimate, type WageInput } from "./Wage.ts"

export class Wages extends Context.Service<
  Wages,
  { readonly estimate: (input: WageInput) => Effect.Effect<Estimates, InvalidValue> }
>()("app/Wages") {
  // No span: it runs on every wage request and is a few multiplications.
  static readonly layer: Layer.Layer<Wages> = Layer.succeed(Wages, {
    estimate: (input) => Effect.suspend(() => Effect.fromResult(estimate(input)))
  })
}
