/**
 * Renders a kustomization the way `kubectl kustomize` does, for the fields deploy/ uses, so that a test can
 * read the objects a cluster would get without kustomize installed (CI has none; no npm package renders
 * kustomize). A field it does not know fails loudly: teach it here before deploy/ uses one. Checked against
 * kustomize v5.5 by rendering deploy/environments/testnet with both.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  resources?: string[];
  namespace?: string;
  nameSuffix?: string;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  patches?: Array<{ target: { kind?: string; name?: string }; path?: string; patch?: string }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  configurations?: string[];
}

interface PatchOperation {
  op: "add" | "replace" | "remove";
  path: string;
  value?: unknown;
}

const understood = new Set(["apiVersion", "kind", "resources", "namespace", "nameSuffix", "labels", "patches", "images", "configurations"]);
/** Kinds others point at by name in ways this renderer does not follow: renaming one would leave a dangling reference. */
const referencedByName = new Set(["ConfigMap", "Secret", "Service", "ServiceAccount", "TriggerAuthentication"]);
/** Kinds with a pod template. */
const workloads = new Set(["Deployment", "StatefulSet", "DaemonSet", "Job"]);

export function kustomizationFile(dir: string): string {
  return path.join(dir, "kustomization.yaml");
}

/** The objects `kubectl kustomize <dir>` prints. */
export function renderKustomization(dir: string): K8sObject[] {
  const file = kustomizationFile(dir);
  const k = parse(readFileSync(file, "utf8")) as Kustomization;
  for (const field of Object.keys(k)) if (!understood.has(field)) throw new Error(`${file}: this renderer does not know the field ${field}`);

  const objects = (k.resources ?? []).flatMap((entry) => {
    const target = path.resolve(dir, entry);
    if (!existsSync(target)) throw new Error(`${file}: resource ${entry} does not exist`);
    if (statSync(target).isDirectory()) return renderKustomization(target);
    return parseAllDocuments(readFileSync(target, "utf8")).map((doc) => doc.toJS() as K8sObject);
  });

  for (const patch of k.patches ?? []) {
    const operations = (patch.path ? parse(readFileSync(path.resolve(dir, patch.path), "utf8")) : parse(patch.patch ?? "")) as PatchOperation[];
    if (!Array.isArray(operations)) throw new Error(`${file}: only JSON 6902 patches (a list of operations) are understood`);
    const { kind, name } = patch.target;
    const targets = objects.filter((o) => (!kind || o.kind === kind) && (!name || o.metadata.name === name));
    if (targets.length === 0) throw new Error(`${file}: a patch targets no resource (${JSON.stringify(patch.target)})`);
    for (const target of targets) for (const operation of operations) applyOperation(target, operation);
  }

  if (k.nameSuffix) {
    const renamed = new Map<string, string>();
    for (const o of objects) {
      if (referencedByName.has(o.kind)) throw new Error(`${file}: renaming a ${o.kind} is not followed by this renderer`);
      const name = `${o.metadata.name}${k.nameSuffix}`;
      renamed.set(`${o.kind}/${o.metadata.name}`, name);
      o.metadata.name = name;
    }
    for (const configuration of k.configurations ?? []) {
      const { nameReference } = parse(readFileSync(path.resolve(dir, configuration), "utf8")) as {
        nameReference: Array<{ kind: string; fieldSpecs: Array<{ kind: string; path: string }> }>;
      };
      for (const reference of nameReference) {
        for (const spec of reference.fieldSpecs) {
          for (const o of objects.filter((x) => x.kind === spec.kind)) {
            const keys = spec.path.split("/");
            const holder = keys.slice(0, -1).reduce<Record<string, unknown> | undefined>((at, key) => at?.[key] as Record<string, unknown> | undefined, o);
            const last = keys[keys.length - 1]!;
            const next = holder && renamed.get(`${reference.kind}/${String(holder[last])}`);
            if (holder && next) holder[last] = next;
          }
        }
      }
    }
  }

  for (const { pairs, includeSelectors, includeTemplates } of k.labels ?? []) {
    for (const o of objects) {
      o.metadata.labels = { ...o.metadata.labels, ...pairs };
      const spec = o.spec as { selector?: Record<string, unknown>; template?: { metadata?: { labels?: Record<string, string> } } } | undefined;
      if (spec?.template && (includeSelectors || includeTemplates)) {
        spec.template.metadata = { ...spec.template.metadata, labels: { ...spec.template.metadata?.labels, ...pairs } };
      }
      if (!includeSelectors || !spec) continue;
      // A Job's selector is generated; a Service's selector is the label map itself.
      if (o.kind === "Service") spec.selector = { ...spec.selector, ...pairs };
      else if (spec.selector && o.kind !== "Job") spec.selector = { ...spec.selector, matchLabels: { ...(spec.selector.matchLabels as object), ...pairs } };
    }
  }

  if (k.namespace) for (const o of objects) if (o.kind !== "Namespace") o.metadata.namespace = k.namespace;

  for (const image of k.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      if (container.image.split(/[:@]/)[0] !== image.name) continue;
      container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ""}`;
    }
  }
  return objects;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: unknown } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
}

/** The containers of a workload's pod template (none for other kinds). */
export function containersOf(o: K8sObject): Container[] {
  if (!workloads.has(o.kind)) return [];
  return (o.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;
}

function applyOperation(target: object, { op, path: pointer, value }: PatchOperation): void {
  const keys = pointer.split("/").slice(1).map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = keys.pop();
  const holder = keys.reduce<unknown>((at, key) => (at === undefined ? undefined : (at as Record<string, unknown>)[key]), target);
  if (typeof holder !== "object" || holder === null || last === undefined) throw new Error(`patch path ${pointer} does not exist`);
  if (Array.isArray(holder)) {
    const index = last === "-" ? holder.length : Number(last);
    if (op === "add") holder.splice(index, 0, value);
    else if (op === "replace") holder[index] = value;
    else holder.splice(index, 1);
    return;
  }
  const object = holder as Record<string, unknown>;
  if (op === "remove") delete object[last];
  else object[last] = value;
}
