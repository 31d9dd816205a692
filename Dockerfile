# Stablecart's image: docs/containers.md. Build: docker build -t stablecart . (podman: add
# --format docker so the HEALTHCHECK is kept).
# BASE_IMAGE: any Debian-based image with Node 24 (node, npm) and a `node` user; the default is the
# official slim image.
ARG BASE_IMAGE=docker.io/library/node:24-bookworm-slim

# 1. Every dependency, the build, then only the production dependencies left in node_modules.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
# Only behind a TLS-inspecting proxy: the CA bundle npm must trust, as a path inside the build
# (podman build --volume /etc/ssl/certs:/etc/host-certs:ro --build-arg npm_config_cafile=...).
ARG npm_config_cafile
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev && npm cache clean --force

# 2. What runs: the built shop, its migrations and production dependencies, nothing else.
FROM ${BASE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    BACKUP_DIR=/data/backups \
    npm_config_update_notifier=false
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/dist ./dist
COPY scripts/container/commands/ /usr/local/bin/
# The data folder (embedded database, outbox, backups) belongs to the unprivileged user; the code
# stays root's, read-only to the shop.
RUN mkdir -p /data/backups && chown -R node:node /data && chmod 0755 /usr/local/bin/doctor /usr/local/bin/backup /usr/local/bin/restore /usr/local/bin/stablecart-cli
USER node
VOLUME ["/data"]
EXPOSE 3000
# The launcher (dist/server/main.js) starts the server under its V8 memory flags, in place (same
# process id), so the shop is process 1 and stops cleanly on SIGTERM (it handles the signal).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
