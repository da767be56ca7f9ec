/** The wage tool: its contract served by the wage calculator, each amount read as written in the body. */
import { Effect } from "effect"
import * as Tool from "../Tool.ts"
import { WageContract } from "./Contract.ts"
import { assumptions } from "./Wage.ts"
import { Wages } from "./Wages.ts"
import { inputOf } from "./Written.ts"

export const WageTool = Tool.make({
  contract: WageContract,
  handlers: Wages.useSync((wages): Tool.HandlersOf<typeof WageContract> => ({
    // The body was read and checked by the RequestBody middleware; the framework keeps the text, so this is no read.
    wageEstimator: ({ payload, request }) =>
      Effect.flatMap(Effect.orDie(request.text), (body) =>
        Effect.map(wages.estimate(inputOf(payload, body)), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
      )
  })),
  layer: Wages.layer
})
