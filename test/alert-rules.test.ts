import { readFileSync } from "node:fs";
import path from "node:path";
import { queueNames } from "@sweep/testkit";
import { parse } from "yaml";
import { WORK_STAGES, registry } from "../packages/metrics/src";

// The alert rules the on-call engineer is paged by, read as Prometheus would load them: every metric
// they name is one the services export, every alert leads to its section of the runbook, and the
// queue-name matchers pick the queues the services really declare.

const root = path.join(__dirname, "..");
const rules = (parse(readFileSync(path.join(root, "deploy/monitoring/alerts.yaml"), "utf8")) as AlertRules).spec.groups.flatMap((g) => g.rules);
const runbook = readFileSync(path.join(root, "docs/runbook.md"), "utf8");

interface AlertRules {
  spec: { groups: Array<{ name: string; rules: Rule[] }> };
}
interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replaceAll(" ", "-");
}

const anchors = new Set([...runbook.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));

/** A rule's expression before any `unless`: the condition it fires on, not what holds it back. */
function ownCondition(rule: Rule): string {
  return rule.expr.split(/\bunless\b/)[0]!;
}

/** Each `sweep_work_oldest_wait_seconds{stage="…"}) > N` in an expression: the stage and its threshold. */
function stageThresholds(alert: string, expr: string): Array<{ alert: string; stage: string; threshold: number }> {
  return [...expr.matchAll(/sweep_work_oldest_wait_seconds\{stage="([a-z_]+)"\}\)\s*>\s*(\d+)/g)].map((m) => ({ alert, stage: m[1]!, threshold: Number(m[2]) }));
}

/** The regular expression of a label matcher in a rule, as Prometheus reads it: fully anchored, `\\` a backslash. */
function matcher(rule: Rule, label: string, op: "=~" | "!~"): RegExp {
  const found = new RegExp(`${label}${op}"((?:[^"\\\\]|\\\\.)*)"`).exec(rule.expr);
  if (!found) throw new Error(`${rule.alert} has no ${label}${op} matcher`);
  return new RegExp(`^(?:${found[1]!.replaceAll("\\\\", "\\")})$`);
}

const rule = (name: string) => rules.find((r) => r.alert === name)!;

describe("the alert rules", () => {
  it("are named, paged or ticketed, summarized, and each leads to its section of the runbook", () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) {
      expect({ alert: r.alert, severity: r.labels.severity }).toEqual({ alert: r.alert, severity: expect.stringMatching(/^(page|ticket)$/) });
      expect(r.annotations.summary).toEqual(expect.any(String));
      const [file, section] = r.annotations.runbook_url!.split("#");
      expect({ alert: r.alert, file, section: anchors.has(section!) }).toEqual({ alert: r.alert, file: "docs/runbook.md", section: true });
      expect(runbook).toContain(`| ${r.alert} | ${r.labels.severity} |`);
    }
  });

  it("name only metrics the services export", () => {
    const named = new Set(rules.flatMap((r) => [...r.expr.matchAll(/\bsweep_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ""))));
    expect(named.size).toBeGreaterThan(0);
    for (const name of named) expect({ name, exported: registry.getSingleMetric(name) !== undefined }).toEqual({ name, exported: true });
  });

  it.each(["", "staging"])("match the queues the services declare (prefix %p)", (prefix) => {
    const names = queueNames(prefix);
    const chains = [97, 11155111];
    const work = [...chains.flatMap((c) => [names.batcher(c), names.sender(c)]), names.ledger(), names.events()];
    const paging = [...[...chains.map((c) => names.sender(c)), names.ledger(), names.events()].map(names.deadLetter), names.unrouted()];
    const batcher = chains.map((c) => names.deadLetter(names.batcher(c)));

    const deadLetters = matcher(rule("SweepDeadLetters"), "queue", "=~");
    const batcherDeadLetters = matcher(rule("SweepDeadLettersBatcher"), "queue", "=~");
    const notDeadLetters = matcher(rule("SweepQueueBacklog"), "queue", "!~");
    expect(paging.filter((q) => deadLetters.test(q))).toEqual(paging);
    expect(batcher.filter((q) => batcherDeadLetters.test(q))).toEqual(batcher);
    expect([...work, ...batcher].filter((q) => deadLetters.test(q))).toEqual([]);
    expect([...work, ...paging].filter((q) => batcherDeadLetters.test(q))).toEqual([]);
    expect(work.filter((q) => notDeadLetters.test(q))).toEqual([]);
    expect([...paging, ...batcher].filter((q) => !notDeadLetters.test(q))).toEqual([]);
  });

  it("watch every stage of the work backlog the ledger reports, each by one alert, and name no other", () => {
    const thresholds = rules.flatMap((r) => stageThresholds(r.alert, ownCondition(r)));
    expect(thresholds.map((t) => t.stage).sort()).toEqual([...WORK_STAGES].sort());
    expect(new Set(thresholds.map((t) => t.alert)).size).toBe(WORK_STAGES.length);
  });

  it("hold back SweepWorkNotBatched exactly while a later stage's own alert condition holds", () => {
    const notBatched = rule("SweepWorkNotBatched");
    const heldBy = stageThresholds(notBatched.alert, notBatched.expr.slice(ownCondition(notBatched).length)).map(({ stage, threshold }) => ({ stage, threshold }));
    const later = rules.filter((r) => r !== notBatched).flatMap((r) => stageThresholds(r.alert, ownCondition(r)).map(({ stage, threshold }) => ({ stage, threshold })));
    expect(heldBy.length).toBeGreaterThan(0);
    expect(heldBy).toEqual(later);
  });

  it("match label values the gauges read on scrape take", () => {
    const hasWork = rules.flatMap((r) => [...r.expr.matchAll(/has_work="([^"]*)"/g)].map((m) => m[1]!));
    expect(hasWork.length).toBeGreaterThan(0);
    expect(hasWork.filter((value) => value !== "true" && value !== "false")).toEqual([]);
  });

  it("leave no link of the runbook to a section it does not have", () => {
    const links = [...runbook.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.filter((link) => !anchors.has(link))).toEqual([]);
  });
});
