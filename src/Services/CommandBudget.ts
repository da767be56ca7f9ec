/**
 * The 50 ms budget of a Redis command, judged so that it catches a Redis that is stalled or slow, not a process that
 * is merely busy. Bun reads a socket only between batches of work: under a burst of requests a process runs many
 * handlers before it reads the Redis socket, whose answers have long arrived, so a plain timer would declare an
 * outage that is not one, and the instance would fall back to its own buckets and over-admit. So when the budget is
 * spent, the verdict waits one more turn of the event loop (a 0 ms timer), in which whatever Redis has answered is
 * read; a stalled or unreachable Redis is still caught at about the budget.
 */

export class BudgetExceeded extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
  }
}

export const withinBudget = <A>(answer: Promise<A>, ms: number): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    let settled = false
    const settle = (f: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      f()
    }
    // The first timer marks the budget spent; the second, after the loop has read its sockets, gives the verdict.
    const timer = setTimeout(() => setTimeout(() => settle(() => reject(new BudgetExceeded(ms))), 0), ms)
    answer.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error))
    )
  })
