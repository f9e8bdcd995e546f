/**
 * A seeded fuzz run over every operation of the OpenAPI document, against the real gateway: bad
 * JSON, wrong types, unknown fields, bodies at and over 64 KiB, extreme numbers, bad cursors,
 * repeated parameters, bad encodings, odd methods and headers, with and without a valid key. Any
 * 5xx, error outside the spec's shape or table, server insides in a body, 2xx to a method the
 * document lacks, or other answer than 400 invalid_json to a bad body fails it (test/fuzz/answer-check.ts).
 * `FUZZ_SEED` replays a run (its seed is printed); `FUZZ_REQUESTS` sizes it.
 */
import { Agent, request } from "node:http";
import { openApiDocument } from "@sweep/api-contract";
import { createTestPartner, seededRandom, seedOf, startStack, type Stack } from "@sweep/testkit";
import { answerProblems, type Answer } from "./fuzz/answer-check";
import { operationsOf } from "./fuzz/operations";
import { fuzzRequest, type FuzzKeys, type FuzzRequest } from "./fuzz/request-generator";

const SEED = seedOf(process.env.FUZZ_SEED, undefined, "FUZZ_SEED");
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
if (!Number.isInteger(REQUESTS) || REQUESTS < 1) throw new RangeError(`FUZZ_REQUESTS must be a whole number above 0, got ${process.env.FUZZ_REQUESTS}`);
/** requests in flight at once: well under the rate limits and the key look-up queue */
const CONCURRENCY = 12;
const ANSWER_TIMEOUT_MS = 15_000;

describe("the API under a fuzz run", () => {
  let stack: Stack;
  let keys: FuzzKeys;
  // Connections are reused after error answers too: a body left unread would garble the next request.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  beforeAll(async () => {
    // Trusting the loopback proxy, so the fuzzed X-Forwarded-For headers reach the per-address limit.
    stack = await startStack({ services: ["api-gateway"], env: { TRUST_PROXY: "loopback" } });
    const partner = await createTestPartner(stack.db, "fuzzed partner");
    const disabled = await createTestPartner(stack.db, "fuzzed disabled partner");
    await stack.db.partner.update({ where: { id: disabled.partnerId }, data: { enabled: false } });
    keys = { valid: partner.apiKey, disabled: disabled.apiKey };
  });

  afterAll(async () => {
    agent.destroy();
    await stack?.stop();
  });

  function send(fuzz: FuzzRequest): Promise<Answer> {
    const { port } = new URL(stack.api);
    return new Promise((resolve, reject) => {
      // Node's client frames a GET's or DELETE's body by neither length nor chunks unless told: the length, then.
      const framed = fuzz.body === undefined || "transfer-encoding" in fuzz.headers ? fuzz.headers : { ...fuzz.headers, "content-length": String(fuzz.body.length) };
      const req = request({ host: "127.0.0.1", port, method: fuzz.method, path: fuzz.target, headers: framed, agent, timeout: ANSWER_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(fuzz.body);
    });
  }

  it(`answers ${REQUESTS} malformed requests without a 5xx, each error in the spec's shape and table`, async () => {
    console.log(`api fuzz: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}`);
    const operations = operationsOf(openApiDocument());
    const random = seededRandom(SEED);
    // Drawn up front, in order: the seed alone decides the requests, whatever order answers come in.
    const requests = Array.from({ length: REQUESTS }, () => fuzzRequest(random, operations, keys));
    const failures: Array<{ n: number; request: FuzzRequest; problems: string[]; status?: number; body?: string }> = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const n = next++;
          const fuzz = requests[n]!;
          try {
            const answer = await send(fuzz);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            const problems = answerProblems(fuzz, answer);
            if (problems.length > 0) failures.push({ n, request: fuzz, problems, status: answer.status, body: answer.body.toString("utf8").slice(0, 300) });
          } catch (err) {
            failures.push({ n, request: fuzz, problems: [`no answer: ${String(err)}`] });
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(`api fuzz: ${REQUESTS} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ${failures.length} failed`);

    // Each failing request (the first 50), then one line per problem kind with its first example.
    for (const failure of failures.slice(0, 50)) console.log(`api fuzz failure: ${summary(failure)}`);
    const byProblem = new Map<string, typeof failures>();
    for (const failure of failures) for (const problem of failure.problems) byProblem.set(problem.replace(/:.*$/s, ""), [...(byProblem.get(problem.replace(/:.*$/s, "")) ?? []), failure]);
    const report = [...byProblem].map(([problem, cases]) => `${cases.length} × ${problem}; first: ${summary(cases[0]!)}`);
    expect({ seed: SEED, failed: report }).toEqual({ seed: SEED, failed: [] });
  }, 240_000);
});

function summary(failure: { n: number; request: FuzzRequest; problems: string[]; status?: number; body?: string }): string {
  const { request: fuzz } = failure;
  const headers = Object.fromEntries(Object.entries(fuzz.headers).map(([k, v]) => [k, String(v).slice(0, 60)]));
  const body = fuzz.body ? `${fuzz.body.length} bytes ${JSON.stringify(fuzz.body.subarray(0, 60).toString("latin1"))}` : "no body";
  return `#${failure.n} [${fuzz.mutations.join(", ")}] ${fuzz.method} ${fuzz.target.slice(0, 120)} auth=${fuzz.auth} ${JSON.stringify(headers)} ${body} → ${failure.status ?? "-"} ${failure.body ?? ""} (${failure.problems.join("; ")})`;
}
