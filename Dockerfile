# One image for the whole suite: the five services, the migrations, the platform contracts and the local
# anvil chains of docker-compose.yml. The arguments are node's: a service's bundle (built by pnpm
# prepare-workspace), or tsx and a TypeScript entry point:
#   docker run --rm sweep-service --enable-source-maps services/ledger/dist/main.js
#   docker run --rm sweep-service --import tsx packages/devnet/src/deploy-platform-main.ts
#   docker run --rm --entrypoint pnpm sweep-service db:migrate
# The lockfile holds anvil's linux-amd64 binary only (the registry it was made against has no other platform's
# @foundry-rs/anvil package; on arm64 everything else installs, then the anvil link below fails): build and run it
# as linux/amd64 (docker-compose.yml does).

FROM node:20-bookworm-slim AS build
# pkcs11js (gas wallet keys in an HSM) is a native addon that node-gyp builds at install, against the image's
# own Node headers (nothing downloaded).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
# The pnpm of package.json's packageManager: another version would try to fetch that one.
RUN npm install -g pnpm@10.34.9
WORKDIR /app
# The packages, from the lockfile alone: this layer stays cached while the lockfile does not change.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
# Nothing downloaded from here on (docs ENVIRONMENT): the Prisma client from the WebAssembly engine that ships
# in the prisma package, the contracts compiled by solc from npm.
ENV CHECKPOINT_DISABLE=1
RUN pnpm install --offline --frozen-lockfile && pnpm prepare-workspace

# The same tree without the package store of the build stage.
FROM node:20-bookworm-slim
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY --from=build /app /app
# `anvil` on the PATH for docker-compose.yml's chains: the binary @sweep/anvil runs, from the npm package.
# .devnet holds their state, written by the unprivileged user.
RUN ln -s "$(node --import tsx -e 'process.stdout.write(require("@sweep/anvil").anvilBinary())')" /usr/local/bin/anvil \
  && mkdir .devnet && chown node:node .devnet
ENV NODE_ENV=production HOST=0.0.0.0 CHECKPOINT_DISABLE=1
USER node
# api-gateway, batcher, chain-sender, ledger, webhook-dispatcher, the api-gateway's /metrics; the two anvils
EXPOSE 8080 8081 8082 8083 8084 8085 8545 8546
ENTRYPOINT ["node"]
CMD ["--enable-source-maps", "services/api-gateway/dist/main.js"]
