import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

/** Adds `headers` to this request's response, whatever it turns out to be. */
export const respondWith = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

export const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`
