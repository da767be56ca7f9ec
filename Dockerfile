# Tools API as one self-contained binary in a slim image.
# Build stage: as CI does, npm fetches the pinned Bun, which installs the dependencies from bun.lock (frozen), Bun
# among them (a pinned dependency); `bun run build` writes the device database (scripts/deviceData.ts) and compiles
# src/ into dist/tools-api (runtime, app, docs and that database).
# (Not `npm ci`: npm 11 writes package-lock.json without msgpackr's optional platform packages, then refuses it.)
FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV PATH=/app/node_modules/.bin:$PATH
COPY package.json bun.lock bunfig.toml tsconfig.json ./
RUN npx --yes "bun@$(node -p 'require("./package.json").dependencies.bun')" install --frozen-lockfile
COPY src ./src
COPY scripts ./scripts
RUN bun run build && ./dist/tools-api --version

# Runtime stage: the binary alone (it needs glibc, and CA certificates for rediss://), as an unprivileged user.
FROM debian:bookworm-slim
RUN apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --no-create-home --uid 10001 tools-api
COPY --from=build /app/dist/tools-api /usr/local/bin/tools-api
USER tools-api
ENV PORT=3000 HOST=0.0.0.0
EXPOSE 3000
# SIGTERM drains in-flight requests (up to 10 s; 15 s with WORKERS) and exits 0: give `docker stop` the time.
STOPSIGNAL SIGTERM
# The binary asks its own /health (from PORT and HOST, as it serves them): nothing added to the image.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 CMD ["/usr/local/bin/tools-api", "health"]
ENTRYPOINT ["/usr/local/bin/tools-api"]
