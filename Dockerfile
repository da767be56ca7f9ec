# Tools API as one self-contained binary in a slim image.
# Build stage: Node and npm install the locked dependencies, Bun among them (a pinned dev dependency), and
# `bun run build` compiles src/ into dist/tools-api (the Bun runtime and the app, docs included).
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV PATH=/app/node_modules/.bin:$PATH
COPY package.json package-lock.json bun.lock bunfig.toml tsconfig.json ./
RUN npm ci --no-audit --no-fund && bun install --frozen-lockfile
COPY src ./src
RUN bun run build && ./dist/tools-api --version

# Runtime stage: the binary alone (it needs glibc, and CA certificates for rediss://), as an unprivileged user.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
  && useradd --system --no-create-home --uid 10001 tools-api
COPY --from=build /app/dist/tools-api /usr/local/bin/tools-api
USER tools-api
ENV PORT=3000 HOST=0.0.0.0
EXPOSE 3000
# SIGTERM drains in-flight requests (up to 10 s; 15 s with WORKERS) and exits 0: give `docker stop` the time.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tools-api"]
