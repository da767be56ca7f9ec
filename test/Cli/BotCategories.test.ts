/**
 * The monitors and scanners common in access logs get a category, each from its real string (as crawler-user-agents'
 * instances and the tools' own sources write them): kube-probe, the load balancers' health checks and zgrab were
 * "Unknown", masscan a crawler, Censys and sqlmap libraries.
 */
import { expect, test } from "bun:test"
import { runOnce } from "../support/Process.ts"

const NAMED: ReadonlyArray<readonly [string, string, string]> = [
  ["kube-probe/1.29", "kube-probe", "monitor"],
  ["ELB-HealthChecker/2.0", "ELB-HealthChecker", "monitor"],
  ["GoogleHC/1.0", "GoogleHC", "monitor"],
  [
    "Amazon-Route53-Health-Check-Service (ref 7e0a1f; report http://amzn.to/1vsZADi)",
    "Amazon Route 53 Health Check",
    "monitor"
  ],
  ["Consul Health Check", "Consul Health Check", "monitor"],
  [
    "Mozilla/5.0 (compatible; Cloudflare-Healthchecks/1.0; +https://www.cloudflare.com/; healthcheck-id: 4b5ad5dc4e6e4c8a)",
    "Cloudflare-Healthchecks",
    "library"
  ],
  ["Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", "UptimeRobot", "monitor"],
  ["Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)", "Pingdom Bot", "monitor"],
  ["StatusCake_Uptime_Checker/1.0", "StatusCake_Uptime_Checker", "monitor"],
  ["Blackbox Exporter/0.24.0", "Blackbox Exporter", "monitor"],
  ["Mozilla/5.0 zgrab/0.x", "zgrab", "scanner"],
  ["masscan/1.3 (https://github.com/robertdavidgraham/masscan)", "masscan", "scanner"],
  ["Nuclei - Open-source project (github.com/projectdiscovery/nuclei)", "Nuclei", "scanner"],
  ["Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)", "Nmap", "scanner"],
  ["Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)", "CensysInspect", "scanner"],
  ["sqlmap/1.7.8#stable (https://sqlmap.org)", "sqlmap", "scanner"],
  ["Mozilla/5.00 (Nikto/2.1.5) (Evasions:None) (Test:Port Check)", "Nikto", "scanner"],
  [
    "Expanse, a Palo Alto Networks company, searches across the global IPv4 space multiple times per day to identify customers' presences on the Internet. If you would like to be excluded from our scans, please send IP addresses/domains to: scaninfo@paloaltonetworks.com",
    "Cortex Xpanse",
    "scanner"
  ],
  // unchanged: a crawler, a library
  ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", "crawler"],
  ["Go-http-client/1.1", "Go-http-client", "library"]
]

test("each monitor and scanner is a bot with its name and category", async () => {
  const result = await runOnce({}, ["parse"], undefined, NAMED.map(([ua]) => `${ua}\n`).join(""))
  expect(result.code).toBe(0)
  const bots = result.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line).bot)
  expect(bots).toEqual(NAMED.map(([, name, category]) => ({ isBot: true, name, category })))
}, 30_000)
