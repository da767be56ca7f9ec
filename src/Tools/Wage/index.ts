/** The wage tool: its contract served by the wage calculator, each amount read as written in the body. */
import { Effect } from "effect"
import * as Tool from "../Tool.ts"
import { WageContract } from "./Contract.ts"
import { Estimator } from "./Estimator.ts"
import { assumptions } from "./Schemas.ts"
import { inputOf } from "./SourceText.ts"

export const WageTool = Tool.make({
  contract: WageContract,
  handlers: Estimator.useSync((estimator): Tool.HandlersOf<typeof WageContract> => ({
    // The body was read and checked by the RequestBody middleware; the framework keeps the text, so this is no read.
    wageEstimator: ({ payload, request }) =>
      Effect.flatMap(Effect.orDie(request.text), (body) =>
        Effect.map(estimator.estimate(inputOf(payload, body)), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
      )
  })),
  layer: Estimator.layer
})
