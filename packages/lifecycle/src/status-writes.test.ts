import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * Every state column (a `status`, a transaction's `reorg`) is written by @sweep/lifecycle alone, so
 * each change goes through the transition table's guard with its events, metrics and wakes. This
 * reads the code of the services and packages (tests and the test kit aside) and names each write
 * found elsewhere: a state column in the data of a Prisma create, update or upsert, or in raw SQL's
 * UPDATE … SET or INSERT INTO's columns.
 */

const root = join(__dirname, "../../..");
const STATE_COLUMN = /^(status|reorg)$/;
const PRISMA_WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert"]);
/** The arguments of a Prisma write that carry values written (where and select only read). */
const WRITTEN_PARTS = new Set(["data", "create", "update"]);

/** The state columns a piece of SQL writes. */
function sqlStateWrites(sql: string): string[] {
  const written: string[] = [];
  for (const [, assignments] of sql.matchAll(/\bSET\s+([\s\S]*?)(?=\bFROM\b|\bWHERE\b|\bRETURNING\b|$)/gi)) {
    for (const [, column] of assignments!.matchAll(/(?:^|,)\s*(?:\w+\.)?"?(\w+)"?\s*=/g)) if (STATE_COLUMN.test(column!)) written.push(column!);
  }
  for (const [, columns] of sql.matchAll(/\bINSERT\s+INTO\s+[\w"]+\s*\(([^)]*)\)/gi)) {
    for (const column of columns!.split(",").map((c) => c.trim().replaceAll('"', ""))) if (STATE_COLUMN.test(column)) written.push(column);
  }
  return written;
}

/** What a function returns: its return statements' values (not those of functions inside it), or an arrow's expression. */
function returnsOf(fn: ts.FunctionLikeDeclaration): ts.Node[] {
  if (!fn.body) return [];
  if (!ts.isBlock(fn.body)) return [fn.body];
  const values: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) values.push(node.expression);
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return values;
}

/** Where a file of source writes a state column: one line per write, `line: what`. */
function stateWrites(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);

  // Values a name stands for within the file: its variable's initializer, or what its function returns.
  const definitions = new Map<string, ts.Node[]>();
  const define = (name: string, values: ts.Node[]) => definitions.set(name, [...(definitions.get(name) ?? []), ...values]);
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) define(node.name.text, [node.initializer]);
    if (ts.isFunctionDeclaration(node) && node.name) define(node.name.text, returnsOf(node));
    ts.forEachChild(node, collect);
  };
  collect(source);

  /** The state columns among the values an expression writes, following the names and functions of the file. */
  const columnsIn = (node: ts.Node, seen = new Set<ts.Node>()): ts.Node[] => {
    if (seen.has(node)) return [];
    seen.add(node);
    const follow = (values: readonly ts.Node[]) => values.flatMap((value) => columnsIn(value, seen));
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && STATE_COLUMN.test(node.name.getText(source))) return [node];
    if (ts.isIdentifier(node)) return follow(definitions.get(node.text) ?? []);
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return follow(returnsOf(node));
    // A call's result: what a function of the file returns, or what a function given to it (a map's) returns; not its other arguments.
    if (ts.isCallExpression(node)) {
      const callee = ts.isIdentifier(node.expression) ? node.expression : ts.isPropertyAccessExpression(node.expression) ? node.expression.expression : null;
      return follow([...(callee ? [callee] : []), ...node.arguments.filter((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a))]);
    }
    const inner: ts.Node[] = [];
    ts.forEachChild(node, (child) => {
      if (ts.isPropertyAssignment(node) && child === node.name) return;
      inner.push(...columnsIn(child, seen));
    });
    return inner;
  };

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && PRISMA_WRITES.has(node.expression.name.text)) {
      const [args] = node.arguments;
      if (args && ts.isObjectLiteralExpression(args)) {
        for (const part of args.properties) {
          if (!ts.isPropertyAssignment(part) && !ts.isShorthandPropertyAssignment(part)) continue;
          if (!WRITTEN_PARTS.has(part.name.getText(source))) continue;
          const value = ts.isPropertyAssignment(part) ? part.initializer : part.name;
          for (const column of columnsIn(value)) at(column, `${column.getText(source).split(/[:\s]/)[0]} in the ${part.name.getText(source)} of ${node.expression.name.text}`);
        }
      }
    }
    if (ts.isTaggedTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node)) {
      const template = ts.isTaggedTemplateExpression(node) ? node.template : node;
      const sql = ts.isTemplateExpression(template) ? [template.head.text, ...template.templateSpans.map((span) => `$x${span.literal.text}`)].join("") : (template as ts.LiteralLikeNode).text;
      for (const column of sqlStateWrites(sql)) at(node, `${column} written by SQL`);
      if (ts.isTaggedTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(found)];
}

/** The non-test TypeScript of services/<name>/src and packages/<name>/src. */
function codeFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "node_modules" ? [] : walk(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  return ["services", "packages"].flatMap((top) =>
    readdirSync(join(root, top))
      .map((name) => join(root, top, name, "src"))
      .filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory())
      .flatMap(walk),
  );
}

/** Where state may be written: the lifecycle itself, and the test kit, which sets up rows in any state for tests. */
const WRITERS = ["packages/lifecycle/src/", "packages/testkit/src/"];

describe("state columns are written by @sweep/lifecycle alone", () => {
  it.each([
    ["a status in an update's data", `tx.batch.update({ where: { id }, data: { status: "failed", reason } })`, ["1: status in the data of update"]],
    ["a status through a variable", `const change = { status: "sent" as const };\nawait db.batch.updateMany({ where: { id }, data: change });`, ["1: status in the data of updateMany"]],
    ["a status through a function of the file", `function columns() { return { reorg: "lost" }; }\ndb.chainTransaction.updateMany({ where: { id }, data: columns() });`, ["1: reorg in the data of updateMany"]],
    ["a status in a nested create", `db.partner.create({ data: { hotWallets: { create: [{ status }] } } })`, ["1: status in the data of create"]],
    ["an upsert's update", `db.sweep.upsert({ where: { id }, create: { id }, update: { status: "queued" } })`, ["1: status in the update of upsert"]],
    ["SQL's SET", "tx.$executeRaw`UPDATE batches SET reason = ${r}, status = 'failed' WHERE id = ${id}`", ["1: status written by SQL"]],
    ["SQL's SET of an aliased column", "tx.$executeRaw`UPDATE chain_transactions t SET t.reorg = 'lost' FROM x WHERE t.status = 'confirmed'`", ["1: reorg written by SQL"]],
    ["SQL's INSERT", "tx.$executeRaw`INSERT INTO webhook_deliveries (event_id, status) VALUES (${id}, 'pending')`", ["1: status written by SQL"]],
  ])("finds %s", (_what, code, expected) => {
    expect(stateWrites("sample.ts", code)).toEqual(expected);
  });

  it.each([
    ["a status in a where", `db.batch.updateMany({ where: { id, status: "sent" }, data: { reason } })`],
    ["a status read", `db.batch.findMany({ where: { status: { in: ["open"] } }, select: { status: true } })`],
    ["SQL's WHERE", "tx.$queryRaw`SELECT id FROM sweeps WHERE status = 'queued' AND reorg = 'reorged'`"],
    ["SQL's UPDATE of other columns", "tx.$executeRaw`UPDATE webhook_deliveries d SET next_attempt_at = ${lease} WHERE d.status = 'pending'`"],
    ["an INSERT without the state", "tx.$executeRaw`INSERT INTO sweeps (id, partner_id) VALUES (${id}, ${p})`"],
  ])("passes %s", (_what, code) => {
    expect(stateWrites("sample.ts", code)).toEqual([]);
  });

  it("finds none in the services and packages", () => {
    const files = codeFiles();
    expect(files.length).toBeGreaterThan(100);
    const writes = files
      .map((path) => relative(root, path))
      .filter((path) => !WRITERS.some((writer) => path.startsWith(writer)))
      .flatMap((path) => stateWrites(path, readFileSync(join(root, path), "utf8")).map((write) => `${path}:${write}`));
    expect(writes).toEqual([]);
  });
});
