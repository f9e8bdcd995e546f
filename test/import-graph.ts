import { existsSync, readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

/**
 * The workspace's module graph as Node loads it: the imports, re-exports, require() and import()
 * of each TypeScript file, followed through relative paths and workspace packages (@sweep/*, each
 * from its package.json main), stopping at npm packages. Type-only imports are left out: the
 * compiler erases them, so they load nothing.
 */

export const repoRoot = path.resolve(__dirname, "..");

export interface WorkspacePackage {
  name: string;
  /** relative to the repository, e.g. services/chain-sender */
  dir: string;
  main?: string;
  dependencies: string[];
}

export function workspacePackages(): WorkspacePackage[] {
  return ["packages", "services"].flatMap((group) =>
    readdirSync(path.join(repoRoot, group))
      .map((name) => path.join(group, name))
      .filter((dir) => existsSync(path.join(repoRoot, dir, "package.json")))
      .map((dir) => {
        const manifest = JSON.parse(readFileSync(path.join(repoRoot, dir, "package.json"), "utf8")) as { name: string; main?: string; dependencies?: Record<string, string> };
        return { name: manifest.name, dir, main: manifest.main, dependencies: Object.keys(manifest.dependencies ?? {}) };
      }),
  );
}

const builtins = new Set(builtinModules);

/** The npm package a bare specifier names: `@scope/name` or `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The specifiers a file loads at run time; with `types`, also those it imports for types only. */
export function loadedSpecifiers(file: string, types = false): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const erased = clause !== undefined && (clause.isTypeOnly || (!clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      if (types || !erased) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && (types || !node.isTypeOnly)) {
      found.push(node.moduleSpecifier.text);
    } else if (types && ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === "require";
      const isResolve = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "require" && callee.name.text === "resolve";
      if (isImport || isRequire || isResolve) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => !s.startsWith("node:") && !builtins.has(s));
}

function resolveFile(base: string): string | undefined {
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep) && (candidate.endsWith(".ts") || candidate.endsWith(".tsx"))) return candidate;
  }
  return undefined;
}

/** The npm packages reachable from `entry` (a file), through every workspace module it loads. */
export function reachablePackages(entry: string, packages: readonly WorkspacePackage[] = workspacePackages()): Set<string> {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const seen = new Set<string>();
  const external = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of loadedSpecifiers(file)) {
      let target: string | undefined;
      if (specifier.startsWith(".")) target = resolveFile(path.resolve(path.dirname(file), specifier));
      else {
        const name = packageOf(specifier);
        const workspace = byName.get(name);
        if (!workspace) {
          external.add(name);
          continue;
        }
        const rest = specifier.slice(name.length + 1);
        target = resolveFile(path.join(repoRoot, workspace.dir, rest || (workspace.main ?? "src/index.ts").replace(/\.ts$/, "")));
      }
      if (target) queue.push(target);
    }
  }
  return external;
}
