import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { environmentChainIds } from "../packages/chains/src";
import { queueNames, type QueueNames } from "../packages/messaging/src/names";
import { containersOf, kustomizationFile, renderKustomization, type Container, type K8sObject } from "./kustomize-render";
import {
  effectiveValue,
  metricsPortVariable,
  nodeVariable,
  portVariables,
  repoRoot,
  requiredVariables,
  serviceOfEntry,
  services,
  startWith,
  unreadVariables,
  type ServiceName,
} from "./service-configuration";

// No cluster runs in CI: deploy/ is kept true to the code by rendering it here and reading what a cluster would get.
const deploy = path.join(repoRoot, "deploy");
const scripts = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

function kustomizationDirs(dir: string): string[] {
  const below = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => kustomizationDirs(path.join(dir, e.name)));
  return existsSync(kustomizationFile(dir)) ? [dir, ...below] : below;
}
const relative = (dir: string) => path.relative(repoRoot, dir);

describe("deploy/ (kustomize)", () => {
  it.each(kustomizationDirs(deploy).map(relative))("%s renders: every resource it lists exists, every patch targets one", (dir) => {
    expect(renderKustomization(path.join(repoRoot, dir)).length).toBeGreaterThan(0);
  });
});

/** What a container is given: literal values (its env and the ConfigMaps it loads whole), and the names the cluster's Secret fills. */
interface ContainerEnv {
  literals: Record<string, string>;
  fromSecrets: Set<string>;
  names: string[];
}

function containerEnv(container: Container, configMaps: Map<string, Record<string, string>>): ContainerEnv {
  const literals: Record<string, string> = {};
  const fromSecrets = new Set<string>();
  for (const source of container.envFrom ?? []) {
    // A whole Secret would hide which variables it sets: secrets are named one by one (secretKeyRef).
    if (!source.configMapRef) throw new Error(`${container.name}: envFrom takes ConfigMaps only`);
    const data = configMaps.get(source.configMapRef.name);
    if (!data) throw new Error(`${container.name}: ConfigMap ${source.configMapRef.name} is not in the environment`);
    Object.assign(literals, data);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) literals[variable.name] = variable.value;
    else if (variable.valueFrom?.secretKeyRef) fromSecrets.add(variable.name);
    else throw new Error(`${container.name}: ${variable.name} comes from neither a value nor a Secret`);
  }
  return { literals, fromSecrets, names: [...Object.keys(literals), ...fromSecrets] };
}

/** The work queues a service consumes, as @sweep/messaging names them: what its autoscaler must watch. */
const consumedQueues: Partial<Record<ServiceName, (names: QueueNames, chains: number[]) => string[]>> = {
  batcher: (names, chains) => chains.map((chain) => names.batcher(chain)),
  "webhook-dispatcher": (names) => [names.events()],
};

const matches = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

const environments = readdirSync(path.join(deploy, "environments"));

describe.each(environments)("deploy/environments/%s", (environment) => {
  const objects = renderKustomization(path.join(deploy, "environments", environment));
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const configMaps = new Map(ofKind("ConfigMap").map((o) => [o.metadata.name, (o as K8sObject & { data: Record<string, string> }).data]));

  const deployments = ofKind("Deployment").map((deployment) => {
    const containers = containersOf(deployment);
    const container = containers[0]!;
    const service = serviceOfEntry(container.command ? undefined : container.args);
    const env = containerEnv(container, configMaps);
    const serviceEnv = service && effectiveValue(service, env.literals, "SERVICE_ENV");
    const perChain = service !== undefined && "CHAINS" in services[service].schema.shape;
    const chainIds = perChain ? (effectiveValue(service, env.literals, "CHAINS") as number[] | undefined) : undefined;
    const spec = deployment.spec as { replicas?: number; template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> } } };
    return { name: deployment.metadata.name, deployment, containers, container, service, env, serviceEnv, chainIds, spec };
  });
  const serviceEnvs = new Set(deployments.map((d) => d.serviceEnv));
  const scaledObjects = ofKind("ScaledObject") as Array<
    K8sObject & {
      spec: {
        scaleTargetRef: { name: string };
        minReplicaCount?: number;
        triggers: Array<{ type: string; metadata: Record<string, string>; authenticationRef?: { name: string } }>;
      };
    }
  >;
  const scaledObjectOf = (name: string) => scaledObjects.find((s) => s.spec.scaleTargetRef.name === name);

  it("runs the five services, all in one SERVICE_ENV, each Deployment one container running a service's bundle", () => {
    expect(new Set(deployments.map((d) => d.service))).toEqual(new Set(Object.keys(services)));
    expect(serviceEnvs.size).toBe(1);
    for (const d of deployments) expect(d.containers).toHaveLength(1);
  });

  it("runs the migrations as a Job of the same image, through the package script", () => {
    expect(new Set(objects.flatMap(containersOf).map((c) => c.image)).size).toBe(1);
    const commands = ofKind("Job").flatMap(containersOf).map((c) => c.command ?? []);
    expect(commands).toContainEqual(["pnpm", "db:migrate"]);
    for (const [runner, script] of commands) {
      expect(runner).toBe("pnpm");
      expect(scripts).toHaveProperty([script!]);
    }
  });

  it("commits no Secret: the cluster's own one is referenced", () => {
    expect(ofKind("Secret")).toEqual([]);
  });

  it("serves every chain of its environment with exactly one Deployment of each per-chain service", () => {
    const serviceEnv = [...serviceEnvs][0] as "testnet" | "mainnet";
    for (const service of Object.keys(services) as ServiceName[]) {
      const ofService = deployments.filter((d) => d.service === service);
      for (const chainId of environmentChainIds(serviceEnv)) {
        const serving = ofService.filter((d) => d.chainIds === undefined || d.chainIds.includes(chainId)).map((d) => d.name);
        expect({ service, chainId, serving }).toEqual({ service, chainId, serving: [expect.any(String)] });
      }
    }
  });

  describe.each(deployments.map((d) => [d.name, d] as const))("Deployment %s", (_name, d) => {
    const service = d.service!;
    const { literals, fromSecrets, names } = d.env;

    it("is given only variables the service reads, every one it requires, and starts with them", () => {
      expect(unreadVariables(service, literals, names)).toEqual([]);
      for (const required of requiredVariables(service)) expect(names).toContain(required);
      expect(() => startWith(service, literals, fromSecrets)).not.toThrow();
      // Probes and Prometheus come from outside the pod: the default 127.0.0.1 would refuse them.
      expect(effectiveValue(service, literals, "HOST")).toBe("0.0.0.0");
    });

    it("reaches each chain it serves through a node the cluster names, not the local-devnet default", () => {
      const chains = startWith(service, literals, fromSecrets) ?? [];
      for (const chain of chains) expect(names).toContain(nodeVariable(chain));
    });

    it("opens the ports its port variables name, probes /healthz there and has /metrics scraped where it is served", () => {
      const ports = portVariables(service, literals);
      const containerPorts = d.container.ports ?? [];
      expect(new Set(containerPorts.map((p) => p.containerPort))).toEqual(new Set(ports.values()));
      const portNumber = (port: string | number) => (typeof port === "number" ? port : containerPorts.find((p) => p.name === port)?.containerPort);
      for (const probe of [d.container.startupProbe, d.container.readinessProbe, d.container.livenessProbe]) {
        expect(probe?.httpGet?.path).toBe("/healthz");
        expect([...ports.values()]).toContain(portNumber(probe!.httpGet!.port));
      }
      const annotations = d.spec.template.metadata.annotations ?? {};
      expect(annotations).toMatchObject({ "prometheus.io/scrape": "true", "prometheus.io/path": "/metrics" });
      expect(Number(annotations["prometheus.io/port"])).toBe(ports.get(metricsPortVariable(service)));
    });

    it("requests CPU and memory and limits memory", () => {
      expect(d.container.resources?.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(d.container.resources?.limits?.memory).toEqual(expect.any(String));
    });

    it("has one PodDisruptionBudget, which lets one pod go and keeps one", () => {
      const budgets = ofKind("PodDisruptionBudget").filter((pdb) =>
        matches((pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels, d.spec.template.metadata.labels),
      );
      expect(budgets).toHaveLength(1);
      const { minAvailable, maxUnavailable } = budgets[0]!.spec as { minAvailable?: number; maxUnavailable?: number };
      const replicas = d.spec.replicas ?? scaledObjectOf(d.name)?.spec.minReplicaCount ?? 1;
      if (minAvailable !== undefined) expect(minAvailable).toBeGreaterThanOrEqual(1);
      expect(replicas - (minAvailable ?? replicas - maxUnavailable!)).toBeGreaterThanOrEqual(1);
      expect(replicas - (maxUnavailable ?? replicas - minAvailable!)).toBeGreaterThanOrEqual(1);
    });

    if (consumedQueues[service]) {
      it("is scaled by KEDA on the length of the queue it consumes, which owns its replica count", () => {
        const scaledObject = scaledObjectOf(d.name);
        expect(scaledObject).toBeDefined();
        expect(d.spec.replicas).toBeUndefined();
        const prefix = effectiveValue(service, literals, "AMQP_PREFIX") as string | undefined;
        const chainIds = d.chainIds ?? environmentChainIds(d.serviceEnv as "testnet" | "mainnet");
        const queues = consumedQueues[service]!(queueNames(prefix), chainIds);
        const triggers = scaledObject!.spec.triggers;
        const watched = triggers.map((t) => [t.type, t.metadata.protocol, t.metadata.mode, t.metadata.queueName]);
        expect(watched).toEqual(queues.map((q) => ["rabbitmq", "amqp", "QueueLength", q]));
        // KEDA reaches the broker with the URL the service itself uses.
        const rabbitmqUrl = d.container.env?.find((e) => e.name === "RABBITMQ_URL")?.valueFrom?.secretKeyRef;
        for (const trigger of triggers) {
          const auth = ofKind("TriggerAuthentication").find((a) => a.metadata.name === trigger.authenticationRef?.name);
          const refs = (auth?.spec as { secretTargetRef: Array<{ parameter: string; name: string; key: string }> } | undefined)?.secretTargetRef;
          expect(refs).toContainEqual({ parameter: "host", name: rabbitmqUrl?.name, key: rabbitmqUrl?.key });
        }
      });
    }
  });

  it("runs two chain-senders per chain: the second waits on standby for the chain's lease", () => {
    for (const d of deployments.filter((x) => x.service === "chain-sender")) expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
  });

  it("scales only Deployments of the environment", () => {
    for (const scaledObject of scaledObjects) expect(deployments.map((d) => d.name)).toContain(scaledObject.spec.scaleTargetRef.name);
  });
});
