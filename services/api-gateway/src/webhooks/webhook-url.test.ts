import { webhookUrlProblem } from "./webhook-url";

describe("webhookUrlProblem", () => {
  it.each([
    ["a plain https URL", "https://hooks.example.com/sweep"],
    ["a port, a query and a fragment", "https://hooks.example.com:8443/in?partner=7#x"],
    ["a public IPv4 host", "https://93.184.216.34/hook"],
    ["a public IPv6 host", "https://[2606:2800:220:1:248:1893:25c8:1946]/hook"],
    ["a name that may resolve anywhere (checked by the dispatcher)", "https://internal.example/hook"],
  ])("accepts %s", (_what, url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });

  it.each([
    ["http", "http://hooks.example.com/", /^must use https$/],
    ["another scheme", "ftp://hooks.example.com/", /^must use https$/],
    ["a relative URL", "/hook", /^must be an absolute https URL$/],
    ["no URL at all", "hooks.example.com", /^must be an absolute https URL$/],
    ["an empty string", "", /^must be an absolute https URL$/],
    ["a user name", "https://user@hooks.example.com/", /^must not carry credentials$/],
    ["a user and password", "https://user:pw@hooks.example.com/", /^must not carry credentials$/],
    ["a leading space", " https://hooks.example.com/", /^must not contain spaces/],
    ["a tab inside", "https://hooks.exa\tmple.com/", /^must not contain spaces/],
    ["a NUL", "https://hooks.example.com/\u0000", /control characters$/],
    ["a DEL", "https://hooks.example.com/\u007f", /control characters$/],
    ["localhost", "https://localhost/hook", /^host localhost is this machine/],
    ["a loopback address", "https://127.0.0.1/hook", /^host 127\.0\.0\.1 is not a public address/],
    ["loopback written as one number", "https://2130706433/hook", /^host 127\.0\.0\.1 is not a public address/],
    ["loopback written in hex", "https://0x7f.1/hook", /^host 127\.0\.0\.1 is not a public address/],
    ["an RFC 1918 address", "https://192.168.0.10/hook", /is not a public address/],
    ["the metadata address", "https://169.254.169.254/latest/meta-data", /is not a public address/],
    ["a CGNAT address", "https://100.64.1.1/", /is not a public address/],
    ["IPv6 loopback", "https://[::1]/hook", /^host \[::1\] is not a public address/],
    ["IPv6 unique-local", "https://[fd00::1]/hook", /is not a public address/],
    ["IPv6 link-local", "https://[fe80::1]/hook", /is not a public address/],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hook", /is not a public address/],
  ])("refuses %s", (_what, url, problem) => {
    expect(webhookUrlProblem(url)).toMatch(problem);
  });
});

describe("webhookUrlProblem with local development's switches, each on its own", () => {
  it.each<[string, RegExp, RegExp | null, RegExp | null, RegExp | null]>([
    // url, production, private hosts only, http only, both
    ["https://127.0.0.1:8443/hook", /is not a public address/, null, /is not a public address/, null],
    ["https://localhost/hook", /is this machine/, null, /is this machine/, null],
    ["https://[::1]/hook", /is not a public address/, null, /is not a public address/, null],
    ["https://10.0.0.5/hook", /is not a public address/, null, /is not a public address/, null],
    ["http://127.0.0.1:3000/hook", /^must use https$/, /^must use https$/, /is not a public address/, null],
    ["http://host.docker.internal:3000/hook", /^must use https$/, /^must use https$/, null, null],
    ["http://hooks.example.com/in", /^must use https$/, /^must use https$/, null, null],
    ["ftp://127.0.0.1/hook", /^must use https$/, /^must use https$/, /^must use https$/, /^must use https$/],
    ["ws://127.0.0.1/hook", /^must use https$/, /^must use https$/, /^must use https$/, /^must use https$/],
    ["http://user:pw@127.0.0.1/hook", /^must use https$/, /^must use https$/, /^must not carry credentials$/, /^must not carry credentials$/],
  ])("%s: production %s, private hosts only %s, http only %s, both %s", (url, production, privateOnly, httpOnly, both) => {
    const expectProblem = (problem: string | null, expected: RegExp | null) => (expected === null ? expect(problem).toBeNull() : expect(problem).toMatch(expected));
    expectProblem(webhookUrlProblem(url), production);
    expectProblem(webhookUrlProblem(url, { allowPrivate: true }), privateOnly);
    expectProblem(webhookUrlProblem(url, { allowHttp: true }), httpOnly);
    expectProblem(webhookUrlProblem(url, { allowPrivate: true, allowHttp: true }), both);
  });
});
