import { loadConfig } from "@sweep/common";
import { createDb, type Db } from "@sweep/db";
import type Redis from "ioredis";
import { cliEnv, connectRedis, type CommandContext } from "./context";
import type { Output } from "./output";

/** Output kept in memory: what --json would print, the human lines, and the notes for stderr. */
export interface CapturedOutput extends Output {
  results: unknown[];
  lines: string[];
  notes: string[];
}

export function captureOutput(): CapturedOutput {
  const captured: CapturedOutput = {
    results: [],
    lines: [],
    notes: [],
    result: (json, lines) => {
      captured.results.push(json);
      captured.lines.push(...lines);
    },
    note: (message) => captured.notes.push(message),
  };
  return captured;
}

/** A command context on the test database and the local Redis; `env` overrides configuration. */
export function testContext(db: Db, redis: Redis, env: NodeJS.ProcessEnv = {}): CommandContext & { out: CapturedOutput } {
  return {
    config: loadConfig(cliEnv, { ...process.env, ...env }),
    out: captureOutput(),
    db,
    redis: async () => redis,
    deadLetters: () => Promise.reject(new Error("no dead letters in this test")),
  };
}

export async function openTestConnections(): Promise<{ db: Db; redis: Redis; close(): Promise<void> }> {
  const db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  const redis = await connectRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  return { db, redis, close: async () => void (await Promise.all([db.$disconnect(), redis.quit()])) };
}

