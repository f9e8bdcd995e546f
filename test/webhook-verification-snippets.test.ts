import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { signatureHeader } from "../services/webhook-dispatcher/src/signature";

// docs/clients.md shows partners a Service-Signature check in Python and Go. The Python one is run
// here with python3 on headers signed by the dispatcher's own function; the Go one was checked by hand
// (docs/clients.md says when and how).
const snippets = path.join(__dirname, "..", "docs", "clients");

interface Case {
  secret: string;
  header: string;
  body: string; // base64 of the raw bytes the receiver got
  now?: number; // the receiver's clock, unix seconds; omitted: the real clock
}

/** Runs verify_webhook from docs/clients/verify_webhook.py on every case in one python3 process. */
function verifyInPython(cases: Case[]): boolean[] {
  const script = [
    "import base64, json, sys",
    `sys.path.insert(0, ${JSON.stringify(snippets)})`,
    "from verify_webhook import verify_webhook",
    "cases = json.load(sys.stdin)",
    'print(json.dumps([verify_webhook(c["secret"], c["header"], base64.b64decode(c["body"]), c.get("now")) for c in cases]))',
  ].join("\n");
  const run = spawnSync("python3", ["-c", script], {
    input: JSON.stringify(cases),
    encoding: "utf8",
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (run.status !== 0) throw new Error(`python3 failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as boolean[];
}

const secret = "whsec_3b1f0c9a7d5e4b2a8c6f1e0d9b7a5c3e";
// A body as the dispatcher sends it, with a non-ASCII character so that bytes, not characters, are signed.
const body = JSON.stringify({
  id: "4f9c0a8e-2d6b-4b7e-9a55-0c1f3e2d4b6a",
  type: "webhook.test",
  created_at: "2026-11-21T12:00:00.000Z",
  data: { note: "café ✓" },
});
const at = new Date("2026-11-21T12:00:00.250Z");
const t = Math.floor(at.getTime() / 1000);
const signed = signatureHeader(secret, body, at);
const v1 = signed.slice(signed.indexOf("v1=") + 3);
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

const accepted: Array<[string, Case]> = [
  ["a valid signature, read at once", { secret, header: signed, body: b64(body), now: t }],
  ["a valid signature, 300 s old", { secret, header: signed, body: b64(body), now: t + 300 }],
  ["a valid signature, 300 s ahead of the receiver's clock", { secret, header: signed, body: b64(body), now: t - 300 }],
];

const refused: Array<[string, Case]> = [
  ["a tampered body", { secret, header: signed, body: b64(body.replace("webhook.test", "sweep.swept")), now: t }],
  ["the body parsed and serialized again", { secret, header: signed, body: b64(JSON.stringify(JSON.parse(body), null, 1)), now: t }],
  ["a wrong secret", { secret: `${secret}x`, header: signed, body: b64(body), now: t }],
  ["a timestamp 301 s old", { secret, header: signed, body: b64(body), now: t + 301 }],
  ["a timestamp 301 s ahead", { secret, header: signed, body: b64(body), now: t - 301 }],
  ["an empty header", { secret, header: "", body: b64(body), now: t }],
  ["a header that is not key=value pairs", { secret, header: "garbage", body: b64(body), now: t }],
  ["a header without v1", { secret, header: `t=${t}`, body: b64(body), now: t }],
  ["a header without t", { secret, header: `v1=${v1}`, body: b64(body), now: t }],
  ["a header whose t is not a number", { secret, header: `t=soon,v1=${v1}`, body: b64(body), now: t }],
  ["a header with ; between its fields", { secret, header: `t=${t};v1=${v1}`, body: b64(body), now: t }],
];

describe("the Python Service-Signature check in docs/clients.md", () => {
  const cases = [...accepted, ...refused];
  let results: boolean[] = [];
  beforeAll(() => {
    results = verifyInPython(cases.map(([, c]) => c));
  });
  const resultOf = (name: string) => results[cases.findIndex(([n]) => n === name)];

  it.each(accepted.map(([name]) => name))("accepts %s", (name) => {
    expect(resultOf(name)).toBe(true);
  });

  it.each(refused.map(([name]) => name))("refuses %s", (name) => {
    expect(resultOf(name)).toBe(false);
  });

  it("accepts a delivery signed just now against the machine's own clock", () => {
    const header = signatureHeader(secret, body, new Date());
    expect(verifyInPython([{ secret, header, body: b64(body) }])).toEqual([true]);
  });
});

describe("docs/clients.md", () => {
  const doc = readFileSync(path.join(snippets, "..", "clients.md"), "utf8");
  const blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang, code: code ?? "" }));

  it.each([
    ["python", "def verify_webhook", "verify_webhook.py"],
    ["go", "func Verify", "verify_webhook.go"],
  ])("quotes the %s function as it is in the tested file", (lang, marker, file) => {
    const quoted = blocks.find((b) => b.lang === lang && b.code.includes(marker));
    expect(quoted).toBeDefined();
    expect(readFileSync(path.join(snippets, file), "utf8")).toContain(quoted?.code);
  });
});
