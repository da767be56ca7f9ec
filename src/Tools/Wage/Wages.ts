/** The wage calculator as a service: the maths is pure (`Wage.ts`); this is its seam for handlers and tests. */
import { Context, Effect, Layer } from "effect"
import { type Estimates, estimate, type WageRequest } from "./Wage.ts"

export class Wages extends Context.Service<
  Wages,
  { readonly estimate: (request: WageRequest) => Effect.Effect<Estimates> }
>()("app/Wages") {
  // Plain Effect.sync, no span: it runs on every wage request and is a few multiplications.
  static readonly layer: Layer.Layer<Wages> = Layer.succeed(Wages, {
    estimate: (request) => Effect.sync(() => estimate(request))
  })
}
