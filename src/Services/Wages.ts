/** The wage calculator as a service: the maths is pure (`Domain/Wage.ts`); this is its seam for handlers and tests. */
import { Effect } from "effect"
import { type Estimates, estimate, type WageRequest } from "../Domain/Wage.ts"

export class Wages extends Effect.Service<Wages>()("app/Wages", {
  succeed: {
    estimate: (request: WageRequest): Effect.Effect<Estimates> => Effect.sync(() => estimate(request))
  }
}) {}
