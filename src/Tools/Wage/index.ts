/** The wage tool: its contract served by the wage calculator. */
import { Effect } from "effect"
import * as Tool from "../Tool.ts"
import { WageContract } from "./Contract.ts"
import { assumptions } from "./Wage.ts"
import { Wages } from "./Wages.ts"

export const WageTool = Tool.make({
  contract: WageContract,
  handlers: Wages.useSync((wages): Tool.HandlersOf<typeof WageContract> => ({
    wageEstimator: ({ payload }) =>
      Effect.map(wages.estimate(payload), (estimates) => ({ success: true as const, estimates, assumptions }))
  })),
  layer: Wages.layer
})
