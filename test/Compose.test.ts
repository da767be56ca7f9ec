/**
 * `compose.yaml` and the image's health check, read as Docker would read them (no Docker engine runs where the tests
 * do): two instances of the image behind one published port, one Redis shared by both, the health check the binary's
 * own command. Written for the Compose and nginx a distribution ships (Debian 12: docker-compose 1.29, nginx 1.22);
 * .ci/compose has both read it, and runs the proxy's config in front of two instances (test/compose/proxy.ts).
 */
import { describe, expect, test } from "bun:test"
import { dirname } from "node:path"

interface Service {
  readonly build?: string
  readonly image?: string
  readonly deploy?: { readonly replicas?: number }
  readonly environment?: Record<string, string>
  readonly ports?: ReadonlyArray<string>
  readonly volumes?: ReadonlyArray<string>
  readonly depends_on?: Record<string, { readonly condition: string }>
  readonly command?: ReadonlyArray<string>
  readonly healthcheck?: { readonly test: ReadonlyArray<string> }
  readonly stop_grace_period?: string
}
interface Compose {
  readonly services: Record<string, Service>
}

const compose = Bun.YAML.parse(await Bun.file("compose.yaml").text()) as Compose
const dockerfile = await Bun.file("Dockerfile").text()
const { api, proxy, redis } = compose.services
/** A volume's host path, container path and options. */
const mounts = (service?: Service) =>
  (service?.volumes ?? []).map((volume) => {
    const [source, target, options] = volume.split(":")
    return { source, target, options }
  })
const proxyMount = mounts(proxy).find(({ target }) => target === "/etc/nginx/conf.d/default.conf")
/** The proxy's config as mounted (none: empty, and the tests that read it fail). */
const proxyConfig = proxyMount?.source === undefined ? "" : await Bun.file(proxyMount.source).text()

describe("compose.yaml", () => {
  test("two instances of the image this repository builds, neither published on its own", () => {
    expect(api?.build).toBe(".")
    expect(api?.deploy?.replicas).toBe(2)
    expect(api?.ports).toBeUndefined()
    expect(Object.keys(compose.services).filter((name) => compose.services[name]?.ports !== undefined)).toEqual([
      "proxy"
    ])
  })

  test("one published port, whose proxy sends every path to the instances' port, with the client's address", () => {
    expect(proxy?.ports).toHaveLength(1)
    expect(proxy?.ports?.[0]).toMatch(/:8080$/)
    expect(proxyMount).toEqual({
      source: "./deploy/nginx.conf",
      target: "/etc/nginx/conf.d/default.conf",
      options: "ro"
    })
    const port = /^ENV PORT=(\d+)/m.exec(dockerfile)?.[1]
    expect(proxyConfig).toContain(`set $api http://api:${port};`)
    expect(proxyConfig).toMatch(/listen 8080;[\s\S]*location \/ \{[\s\S]*proxy_pass \$api;/)
    expect(proxyConfig).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;")
    expect(api?.environment?.TRUST_PROXY).toBe("true")
  })

  test("both instances share one Redis, which they wait for, so the limit is one", () => {
    expect(api?.environment?.REDIS_URL).toBe("redis://redis:6379")
    expect(redis?.image).toMatch(/^redis:/)
    expect(api?.depends_on?.redis?.condition).toBe("service_healthy")
    expect(redis?.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"])
  })

  test("the keys are the operator's file, the same for both, its folder mounted so a file moved over it is seen", () => {
    const file = api?.environment?.API_KEYS_FILE ?? ""
    expect(mounts(api)).toContainEqual({ source: "./keys", target: dirname(file), options: "ro" })
    expect(mounts(api).filter(({ target }) => target === file)).toEqual([])
    expect(api?.environment?.API_KEYS).toBeUndefined()
  })

  test("a drain is never cut short, and the proxy sends traffic only once an instance is healthy", () => {
    expect(api?.stop_grace_period).toBe("15s")
    expect(proxy?.depends_on?.api?.condition).toBe("service_healthy")
  })
})

describe("compose.yaml on the Compose and nginx of Debian 12 (docker-compose 1.29, nginx 1.22)", () => {
  test("only keys Compose 1.29 reads: no top-level name, no config written inline (Compose 2.23 on)", () => {
    expect(Object.keys(compose)).toEqual(["services"])
  })

  test("the proxy asks Docker's DNS at run time without `resolve` on an upstream server (nginx 1.27.3 on)", () => {
    expect(proxyConfig).not.toMatch(/^\s*server\s[^;{\n]*\bresolve\b/m)
    expect(proxyConfig).toContain("resolver 127.0.0.11 valid=10s ipv6=off;")
  })
})

describe("Dockerfile", () => {
  test("a HEALTHCHECK that runs the binary's own health command, with nothing added to the image", () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["\/usr\/local\/bin\/tools-api", "health"\]$/m)
    expect(dockerfile).not.toMatch(/apt-get install[^\n]*\b(curl|wget)\b/)
  })

  test("a supported Node in the build stage, and quiet, non-interactive apt", () => {
    const node = Number(/^FROM node:(\d+)/m.exec(dockerfile)?.[1])
    expect(node).toBeGreaterThanOrEqual(22)
    for (const line of dockerfile.split("\n").filter((line) => line.includes("apt-get install"))) {
      expect(line).toContain("DEBIAN_FRONTEND=noninteractive")
      expect(line).toContain("-qq")
    }
  })
})
