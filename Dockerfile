# One image for the five services; the container's command picks the service:
#   docker run sweep-service services/api-gateway/src/main.ts
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm install -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile && pnpm prepare-workspace
ENV NODE_ENV=production HOST=0.0.0.0
USER node
ENTRYPOINT ["pnpm", "exec", "tsx"]
