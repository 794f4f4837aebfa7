# One image, three ways to run it (README, "Run it in containers"):
#   docker run -p 3000:3000 IMAGE   the whole sandbox: API and terminal simulator, as `npm start`
#   IMAGE api · IMAGE simulator     one app each, as docker-compose.yml runs them
# BASE_IMAGE: any Node 20 image on Debian bookworm. APP_FROM=prebuilt takes dist/ and a pruned
# node_modules from the build context's app/ instead of building them here (scripts/test-containers.sh
# makes that context from a CI build, on a machine of the same glibc).
ARG BASE_IMAGE=node:20-bookworm-slim
ARG APP_FROM=build

FROM ${BASE_IMAGE} AS build
# Behind a proxy with a certificate authority of its own: a CA bundle for npm, readable in the build
# (`podman build --volume`), named here. Unset, npm trusts the usual authorities.
ARG NPM_CONFIG_CAFILE
# sqlite3 compiles against the headers the Node images carry, rather than downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
  && mkdir /release && mv dist node_modules package.json /release/ \
  && sh scripts/containers/slim-app.sh /release

FROM ${BASE_IMAGE} AS prebuilt
COPY app/ /release/

FROM ${APP_FROM} AS app

FROM ${BASE_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="Terminal Payment Service sandbox" \
  org.opencontainers.image.description="Card-present Terminal Payment Service and its terminal simulator" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.revision="${REVISION}" \
  org.opencontainers.image.source="${SOURCE}"
# tini as PID 1: passes SIGTERM on to the app, which drains, and reaps what exits.
RUN command -v tini >/dev/null || { apt-get update && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*; } \
  && mkdir -p /data && chown node:node /data
WORKDIR /app
COPY --from=app /release/ /app/
COPY deploy/docker-entrypoint.sh /usr/local/bin/tps-entrypoint
# The apps' default data/ is the volume; the simulator listens beyond the container's loopback.
RUN ln -s /data /app/data
ENV NODE_ENV=production HOST=0.0.0.0
USER node
VOLUME ["/data"]
EXPOSE 3000 3100
# Liveness (GET /health of the app it runs), never /ready: a slow database must not mark it unhealthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["tps-entrypoint", "health"]
ENTRYPOINT ["tini", "--", "tps-entrypoint"]
CMD ["sandbox"]
