import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { baseEnv } from "@sweep/common";
import { parse } from "yaml";
import { chainRegistry, devnetTokenAddress, rpcUrlsFor } from "../packages/chains/src";
import {
  effectiveValue,
  nodeVariable,
  portVariables,
  repoRoot,
  requiredVariables,
  serviceOfEntry,
  startWith,
  unreadVariables,
} from "./service-configuration";

interface ComposeService {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

// Docker has no engine on CI machines, so the compose file and the image are kept correct by reading them.
const compose = parse(readFileSync(path.join(repoRoot, "docker-compose.yml"), "utf8"), { merge: true }) as { services: Record<string, ComposeService> };
const dockerfile = readFileSync(path.join(repoRoot, "Dockerfile"), "utf8");
const packageJson = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { packageManager: string; scripts: Record<string, string> };

const entries = Object.entries(compose.services);
const ofImage = entries.filter(([, s]) => s.build !== undefined);
const suiteServices = ofImage.flatMap(([name, s]) => {
  const service = serviceOfEntry(s.entrypoint ? undefined : s.command);
  return service ? [{ name, service, compose: s, env: s.environment ?? {} }] : [];
});
const anvils = ofImage.filter(([, s]) => s.entrypoint?.[0] === "anvil");
const jobs = ofImage.filter(([name, s]) => !anvils.some(([a]) => a === name) && !suiteServices.some((x) => x.compose === s));

/** host:container pairs published on the loopback interface */
const published = (s: ComposeService) =>
  (s.ports ?? []).map((p) => {
    const [host, hostPort, containerPort] = p.split(":");
    return { host, hostPort: Number(hostPort), containerPort: Number(containerPort) };
  });
const flag = (s: ComposeService, name: string) => s.command?.[s.command.indexOf(name) + 1];

describe("docker-compose.yml: the servers", () => {
  const defaults = {
    postgres: new URL(baseEnv.DATABASE_URL.parse(undefined)),
    rabbitmq: new URL(baseEnv.RABBITMQ_URL.parse(undefined)),
    redis: new URL(baseEnv.REDIS_URL.parse(undefined)),
  };

  it.each(Object.entries(defaults))("runs %s where the default URL points, with a healthcheck", (name, url) => {
    const service = compose.services[name]!;
    expect(service.ports).toContain(`127.0.0.1:${url.port}:${url.port}`);
    expect(service.healthcheck).toBeDefined();
  });

  it("uses the credentials of the default URLs", () => {
    expect(compose.services.postgres!.environment!.POSTGRES_USER).toBe(defaults.postgres.username);
    expect(compose.services.postgres!.environment!.POSTGRES_DB).toBe(defaults.postgres.pathname.slice(1));
    expect(compose.services.rabbitmq!.environment!.RABBITMQ_DEFAULT_USER).toBe(defaults.rabbitmq.username);
    expect(compose.services.rabbitmq!.environment!.RABBITMQ_DEFAULT_PASS).toBe(defaults.rabbitmq.password);
  });
});

describe("Dockerfile", () => {
  it("runs node with the arguments it is given, by default the api-gateway's bundle as pnpm start runs it", () => {
    expect(JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)![1]!)).toEqual(["node"]);
    expect(serviceOfEntry(JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1]!) as string[])).toBe("api-gateway");
  });

  it("installs the pnpm of packageManager (another version would try to fetch that one) and runs as an unprivileged user", () => {
    const versions = [...dockerfile.matchAll(/npm install -g pnpm@(\S+)/g)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(`pnpm@${version}`).toBe(packageJson.packageManager);
    expect(/^USER (\S+)$/m.exec(dockerfile)?.[1]).toBe("node");
  });
});

describe("docker-compose.yml: the suite", () => {
  const serviceEnvs = new Set(suiteServices.map((s) => effectiveValue(s.service, s.env, "SERVICE_ENV") as "testnet" | "mainnet"));
  const [serviceEnv] = [...serviceEnvs];

  it("runs each of the five services once, all in one SERVICE_ENV", () => {
    expect(suiteServices.map((s) => s.service).sort()).toEqual(["api-gateway", "batcher", "chain-sender", "ledger", "webhook-dispatcher"]);
    expect(serviceEnvs.size).toBe(1);
  });

  it("runs an anvil per chain of the environment, where the chain's local default URL points", () => {
    const chains = chainRegistry(serviceEnv!, devnetTokenAddress, {});
    expect(anvils).toHaveLength(chains.length);
    for (const chain of chains) {
      const port = Number(new URL(rpcUrlsFor(chain, {})[0]!).port);
      const anvil = anvils.find(([, s]) => flag(s, "--chain-id") === String(chain.chainId));
      expect(anvil).toBeDefined();
      const [, s] = anvil!;
      expect([flag(s, "--port"), flag(s, "--host")]).toEqual([String(port), "0.0.0.0"]);
      expect(published(s)).toEqual([{ host: "127.0.0.1", hostPort: port, containerPort: port }]);
      expect(s.healthcheck?.test.join(" ")).toContain(`http://127.0.0.1:${port}`);
    }
  });

  it("runs the migrations and the platform contracts as one-shot jobs of the image, each an existing script or entry point", () => {
    const commands = jobs.map(([, s]) => [...(s.entrypoint ?? []), ...(s.command ?? [])]);
    expect(commands).toContainEqual(["pnpm", "db:migrate"]);
    expect(commands).toContainEqual(["--import", "tsx", "packages/devnet/src/deploy-platform-main.ts"]);
    for (const command of commands) {
      if (command[0] === "pnpm") expect(packageJson.scripts).toHaveProperty([command[1]!]);
      else expect(existsSync(path.join(repoRoot, command.at(-1)!))).toBe(true);
    }
  });

  describe.each(suiteServices.map((s) => [s.name, s] as const))("%s", (_name, { service, compose: s, env }) => {
    it("is given only variables the service reads, every one it requires, and starts with them", () => {
      expect(unreadVariables(service, env, Object.keys(env))).toEqual([]);
      for (const required of requiredVariables(service)) expect(Object.keys(env)).toContain(required);
      expect(() => startWith(service, env)).not.toThrow();
      expect(effectiveValue(service, env, "HOST")).toBe("0.0.0.0");
    });

    it("reaches each chain it serves at the compose anvil of that chain, not the container's own loopback", () => {
      for (const chain of startWith(service, env)!) {
        const node = env[nodeVariable(chain)];
        expect(node).toBeDefined();
        expect(flag(compose.services[new URL(node!).hostname]!, "--chain-id")).toBe(String(chain.chainId));
      }
    });

    it("publishes on 127.0.0.1 exactly the ports its port variables name, and checks its health on /healthz", () => {
      const ports = [...portVariables(service, env).values()].sort();
      expect(published(s).sort((a, b) => a.containerPort - b.containerPort)).toEqual(ports.map((p) => ({ host: "127.0.0.1", hostPort: p, containerPort: p })));
      const probe = /http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(s.healthcheck?.test.join(" ") ?? "");
      expect(ports).toContain(Number(probe?.[1]));
    });

    it("connects to compose services on ports they listen on, and starts after them and after the jobs", () => {
      for (const [variable, value] of Object.entries(env)) {
        if (!/^[a-z]+:\/\//.test(value)) continue;
        const url = new URL(value);
        if (variable === "PUBLIC_URL") {
          // where partners on this machine reach the API: a port the API publishes
          expect(published(s).map((p) => `http://127.0.0.1:${p.hostPort}`)).toContain(url.origin);
          continue;
        }
        const target = compose.services[url.hostname];
        expect({ variable, host: url.hostname, found: target !== undefined }).toEqual({ variable, host: url.hostname, found: true });
        const listens = target!.entrypoint?.[0] === "anvil" ? [Number(flag(target!, "--port"))] : published(target!).map((p) => p.containerPort);
        expect(listens).toContain(Number(url.port));
        expect(s.depends_on?.[url.hostname]).toEqual({ condition: "service_healthy" });
      }
      for (const [job] of jobs) expect(s.depends_on?.[job]).toEqual({ condition: "service_completed_successfully" });
    });
  });

  it("restarts every long-running container that fails, as `pnpm start` restarts a service, and no one-shot job", () => {
    const isJob = (name: string) => jobs.some(([job]) => job === name);
    const policies = Object.fromEntries(entries.map(([name, s]) => [name, s.restart]));
    expect(policies).toEqual(Object.fromEntries(entries.map(([name]) => [name, isJob(name) ? undefined : "on-failure"])));
    expect(jobs.length).toBeGreaterThan(0);
  });

  it("runs the jobs against compose services only", () => {
    for (const [name, s] of jobs) {
      for (const value of Object.values(s.environment ?? {})) {
        if (!/^[a-z]+:\/\//.test(value)) continue;
        const host = new URL(value).hostname;
        expect({ job: name, host, found: host in compose.services }).toEqual({ job: name, host, found: true });
        expect(s.depends_on?.[host]).toEqual({ condition: "service_healthy" });
      }
    }
  });
});
