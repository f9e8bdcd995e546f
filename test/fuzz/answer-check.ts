/**
 * What the fuzzer holds every answer to: no 5xx, every error in the spec's shape with a code of its
 * table (at that code's status), nothing of the server's insides in any body, and the spec's own
 * answer where it names one.
 */

/** The spec's Errors table (sweep-service-spec.md, "## Errors"): code → HTTP status. */
export const SPEC_ERROR_CODES: Readonly<Record<string, number>> = {
  invalid_json: 400,
  invalid_query: 400,
  unauthorized: 401,
  partner_disabled: 403,
  not_found: 404,
  hot_wallet_not_active: 409,
  unknown_chain: 422,
  unknown_hot_wallet: 422,
  unknown_token: 422,
  invalid_address: 422,
  invalid_amount: 422,
  invalid_external_id: 422,
  invalid_authorization: 422,
  invalid_url: 422,
  internal: 500,
};

/** Codes beyond the table that docs/decisions.md records, each where the spec leaves room. */
export const DECIDED_ERROR_CODES: Readonly<Record<string, number>> = {
  // rate limits: "not shown" in the spec
  rate_limited: 429,
  // the bound on hot wallets per partner and chain
  too_many_hot_wallets: 422,
};

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A stack frame, or a path of a file on the server (source, module or home directory). */
const INSIDES: Array<[string, RegExp]> = [
  ["a stack frame", /\n\s+at [^\n]+:\d+:\d+|\bat (?:async )?[\w.<>$]+ \([^)]*:\d+:\d+\)/],
  ["a file path", /(?:^|[\s"'(=:])(?:\/(?:home|root|usr|opt|srv|var|tmp|app|work|build|src|node_modules|dist|services|packages)\/[^\s"']*|[A-Za-z]:\\[^\s"']+)/],
  ["a source file", /[\w-]+\.(?:ts|js|mjs|cjs)(?::\d+)+/],
  ["node_modules", /node_modules/],
  ["an internal error name", /\b(?:TypeError|ReferenceError|RangeError|SyntaxError: Unexpected|PrismaClient\w*Error|ECONNREFUSED|ERR_[A-Z_]+)\b/],
];

/** The problems with one answer to one request; none when it is as the spec says. */
export function answerProblems(request: { method: string; undocumented?: boolean; expect?: { status: number; code: string } }, answer: Answer, codes: Readonly<Record<string, number>> = { ...SPEC_ERROR_CODES, ...DECIDED_ERROR_CODES }): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  const text = answer.body.toString("utf8");
  for (const [what, pattern] of INSIDES) if (pattern.test(text)) problems.push(`the body shows ${what}`);
  const isError = answer.status >= 400;
  if (request.undocumented && !isError) problems.push(`answered ${answer.status} to ${request.method}, a method the document does not list for the path`);
  // A HEAD answer has no body by HTTP's rules; its status is all there is to check.
  if (isError && request.method !== "HEAD") {
    const error = errorOf(answer);
    if (typeof error === "string") problems.push(error);
    else if (!(error.code in codes)) problems.push(`code ${error.code} is not in the spec's error table`);
    else if (codes[error.code] !== answer.status) problems.push(`code ${error.code} came with ${answer.status}, the table says ${codes[error.code]}`);
  }
  if (request.expect) {
    const rateLimited = answer.status === 429;
    const code = isError && request.method !== "HEAD" ? errorOf(answer) : undefined;
    const got = typeof code === "object" ? code.code : undefined;
    if (!rateLimited && (answer.status !== request.expect.status || got !== request.expect.code)) {
      problems.push(`the spec says ${request.expect.status} ${request.expect.code}, got ${answer.status} ${got ?? ""}`.trim());
    }
  }
  return problems;
}

/** The error object of a body in the spec's shape, or what is wrong with the body. */
function errorOf(answer: Answer): { code: string; message: string } | string {
  const type = String(answer.headers["content-type"] ?? "");
  if (!/^application\/json\b/i.test(type)) return `an error answered as ${type || "no content type"}, not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return "an error body that is not JSON";
  }
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  const shaped =
    body !== null && typeof body === "object" && !Array.isArray(body) && Object.keys(body).join() === "error" &&
    error !== null && typeof error === "object" && typeof error.code === "string" && typeof error.message === "string" &&
    Object.keys(error).every((key) => key === "code" || key === "message");
  return shaped ? { code: error.code as string, message: error.message as string } : `an error body outside the spec's shape: ${answer.body.toString("utf8").slice(0, 120)}`;
}
