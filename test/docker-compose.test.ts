import { readFileSync } from "node:fs";
import path from "node:path";
import { baseEnv } from "@sweep/common";
import { parse } from "yaml";

// Docker has no engine on CI machines, so the compose file is kept correct by reading it.
describe("docker-compose.yml", () => {
  const compose = parse(readFileSync(path.join(__dirname, "..", "docker-compose.yml"), "utf8"));
  const defaults = {
    postgres: new URL(baseEnv.DATABASE_URL.parse(undefined)),
    rabbitmq: new URL(baseEnv.RABBITMQ_URL.parse(undefined)),
    redis: new URL(baseEnv.REDIS_URL.parse(undefined)),
  };

  it.each(Object.entries(defaults))("runs %s where the default URL points", (name, url) => {
    const service = compose.services[name];
    expect(service).toBeDefined();
    expect(service.ports).toContain(`127.0.0.1:${url.port}:${url.port}`);
    expect(service.healthcheck).toBeDefined();
  });

  it("uses the credentials of the default URLs", () => {
    expect(compose.services.postgres.environment.POSTGRES_USER).toBe(defaults.postgres.username);
    expect(compose.services.rabbitmq.environment.RABBITMQ_DEFAULT_USER).toBe(defaults.rabbitmq.username);
    expect(compose.services.rabbitmq.environment.RABBITMQ_DEFAULT_PASS).toBe(defaults.rabbitmq.password);
  });
});
