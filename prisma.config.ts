import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { PrismaConfig } from "prisma";

// Offline recipe (docs/ENVIRONMENT): the WebAssembly schema engine through the pg driver adapter.
const connectionString = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sweep";
process.env.DATABASE_URL = connectionString;

export default {
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  adapter: async () => new PrismaPg({ connectionString }),
} satisfies PrismaConfig;
