/**
 * Preloaded by `bun test` (bunfig.toml): without redis-server, the line saying how to install it comes first, once;
 * the tests that need it then fail with a short reason pointing at it (support/Redis.ts).
 */
import { MISSING_REDIS, redisServerMissing } from "./Redis.ts"

if (redisServerMissing()) {
  process.stderr.write(`${MISSING_REDIS}: the tests that need it fail\n`)
  ;(globalThis as { redisServerMissingSaid?: boolean }).redisServerMissingSaid = true
}
