/**
 * Where a command's result goes: JSON on stdout with --json, lines for people otherwise. Notes and
 * warnings always go to stderr, so that stdout stays machine-readable.
 */
export interface Output {
  result(json: unknown, lines: string[]): void;
  note(message: string): void;
}

export function consoleOutput(json: boolean): Output {
  return {
    result: (data, lines) => process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : lines.map((line) => `${line}\n`).join("")),
    note: (message) => process.stderr.write(`${message}\n`),
  };
}
