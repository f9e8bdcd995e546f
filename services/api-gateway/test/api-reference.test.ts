/**
 * The API reference at /docs, from the gateway as it runs (its bundle, as the stacks and the image run it:
 * the bundle must still find swagger-ui-dist's files), opened in Debian's chromium: Swagger UI renders the
 * gateway's own OpenAPI document, nothing is loaded from another origin, and the page's CSP refuses nothing.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { environmentChainIds } from "@sweep/chains";
import { defineTopology, deleteTopology } from "@sweep/messaging";
import { startService, type ServiceProcess } from "@sweep/testkit";
import { chromium } from "playwright-core";
import request from "supertest";
import { API_REFERENCE_CSP } from "../src/api-reference/routes";

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

describe("the API reference at /docs", () => {
  let gateway: ServiceProcess | undefined;
  let api: string;
  const prefix = `api-reference-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    gateway = await startService("api-gateway", { DATABASE_URL: process.env.DATABASE_URL!, AMQP_PREFIX: prefix, REDIS_KEY_PREFIX: prefix });
    api = `http://127.0.0.1:${gateway.port}`;
  });

  afterAll(async () => {
    await gateway?.stop();
    await deleteTopology(RABBITMQ_URL, defineTopology({ chainIds: environmentChainIds("testnet"), prefix }));
  });

  it("is a page that names the gateway's document and scripts of this origin only, under a CSP of its own", async () => {
    const res = await request(api).get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["content-security-policy"]).toBe(API_REFERENCE_CSP);
    expect(API_REFERENCE_CSP).toMatch(/script-src 'self';/);
    expect(res.text).toContain('data-document="/v1/openapi.yaml"');
    expect(res.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(res.text).toContain('<script src="/docs/assets/reference.js"></script>');
    expect(res.text).not.toMatch(/\/\/[^/]/);
  });

  it.each([
    ["swagger-ui-bundle.js", /^(text|application)\/javascript/],
    ["swagger-ui.css", /^text\/css/],
  ])("serves %s as the installed swagger-ui-dist has it", async (name, type) => {
    const res = await request(api).get(`/docs/assets/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(type);
    expect(res.headers["content-security-policy"]).toBe(API_REFERENCE_CSP);
    expect(res.text).toBe(readFileSync(require.resolve(`swagger-ui-dist/${name}`, { paths: [`${__dirname}/../src`] }), "utf8"));
  });

  it("serves the script that starts Swagger UI on the page's document", async () => {
    const res = await request(api).get("/docs/assets/reference.js");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(res.text).toContain("root.dataset.document");
  });

  it("renders the document's operations in a browser, with no request elsewhere and nothing refused or thrown", async () => {
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      const elsewhere: string[] = [];
      const consoleErrors: string[] = [];
      const pageErrors: string[] = [];
      page.on("request", (req) => {
        if (new URL(req.url()).origin !== api) elsewhere.push(req.url());
      });
      // A CSP violation is reported on the console; so is anything else the page failed at.
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => pageErrors.push(String(error)));

      await page.goto(`${api}/docs`);
      const createSweep = page.locator(".opblock-post").filter({ has: page.locator('[data-path="/v1/sweeps"]') });
      await createSweep.getByText("Create a sweep").waitFor();
      // Opened as a person does: the request body's schema, from the document's components.
      await createSweep.locator(".opblock-summary-control").click();
      await createSweep.getByText("Request body").waitFor();
      await page.getByRole("heading", { name: /Gas-Sponsored Sweep Service/ }).first().waitFor();

      expect(elsewhere).toEqual([]);
      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
