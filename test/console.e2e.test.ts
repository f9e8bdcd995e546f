import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { source as axeSource } from "axe-core";
import { formatUnits, parseEther, Wallet, ZeroAddress, type HDNodeWallet } from "ethers";
import { chromium, type Browser, type Page } from "playwright-core";
import { SweepClient, type Sweep } from "@sweep/client";
import { authorizationBody, createTestPartner, eventually, fundedDeposit, sharedStack, startReceiver, type Receiver, type SharedStack, type TestPartner } from "@sweep/testkit";
import { createConsoleUser } from "../packages/cli/src/console-user-commands";
import { connectRedis } from "../packages/cli/src/context";
import { testContext } from "../packages/cli/src/test-support";

// A partner's operator runs the console in Debian's chromium against the whole suite, everything
// real: signs in through the one-time link the operator's CLI printed, makes an API key and uses
// it, registers a hot wallet, sees a sweep made through the API swept with its fee and in the
// day's usage chart, sets a webhook and resends a delivery, and revokes the key. Every page is
// checked with axe-core (no serious or critical violation), runs under the gateway's CSP without
// a violation, and is kept as a screenshot in test/artifacts/console/; amounts read in units with
// their symbol, and every page fits a 390 px phone. It runs on the run's shared anvil stack:
// everything it reads is its own partner's.

const CHAIN_ID = 97;
const SCREENSHOTS = path.join(__dirname, "artifacts", "console");
const DIST = path.join(__dirname, "..", "packages", "console-ui", "dist", "index.html");
const PASSWORD = "correct horse battery staple";

/** An amount as the console shows it: exact units and the symbol (formatUnits without ethers' ".0"). */
const inUnits = (value: string, symbol: string, decimals = 18) => `${formatUnits(value, decimals).replace(/\.0$/, "")} ${symbol}`;

describe("the partner console in a browser", () => {
  let stack: SharedStack;
  let partner: TestPartner;
  let receiver: Receiver;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  /** the addresses the browser reported a failed load of (4xx/5xx) */
  const failedLoads: string[] = [];
  let consoleKey = "";
  let client: SweepClient;
  const hotWallet = Wallet.createRandom().address;
  let sweep: Sweep;
  let depositOwner: HDNodeWallet;

  beforeAll(async () => {
    if (!existsSync(DIST)) throw new Error("the console is not built: run `pnpm prepare-workspace` (pnpm test does)");
    mkdirSync(SCREENSHOTS, { recursive: true });
    [stack, browser, receiver] = await Promise.all([
      // The webhook receiver is plain http on this machine, as in local development (the shared stack allows private addresses).
      sharedStack("anvil"),
      chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] }),
      startReceiver(),
    ]);
    partner = await createTestPartner(stack.db, "console partner");
    await stack.chain(CHAIN_ID).setBalance(partner.gasWallet, parseEther("10"));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // The copy button writes to the clipboard, as a person's click allows.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.api });
    page = await context.newPage();
    // A step that cannot happen fails in seconds, naming what it waited for.
    page.setDefaultTimeout(15_000);
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    page.on("response", (response) => {
      if (response.status() >= 400) failedLoads.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.disconnect();
  }, 60_000);

  /** Opens a console address and waits for the page's heading and data; with a screenshot name, checks it (below). */
  async function visit(pagePath: string, heading: string, screenshot?: string): Promise<void> {
    await page.goto(`${stack.api}/console${pagePath}`);
    await shown(heading, screenshot);
  }

  /** Goes to a section as a person does, by its link in the navigation. */
  async function openSection(name: string, screenshot?: string): Promise<void> {
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name, exact: true }).click();
    await shown(name, screenshot);
  }

  async function shown(heading: string, screenshot?: string): Promise<void> {
    await page.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor();
    await page.getByText("Loading…").first().waitFor({ state: "detached" });
    if (screenshot) await check(screenshot);
  }

  /** Checks the page with axe-core (no serious or critical violation) and keeps a screenshot of it. */
  async function check(screenshot: string): Promise<void> {
    // Through the DevTools protocol, which the page's CSP does not govern (an added <script> would be refused); once per page load.
    if ((await page.evaluate("typeof axe")) === "undefined") await page.evaluate(axeSource);
    const violations = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))")) as {
      id: string;
      impact: string;
      help: string;
      nodes: string[];
    }[];
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`), fullPage: true });
  }

  /** The charts' axis tick labels that reach outside their chart (cut off where the SVG ends). */
  const clippedTicks = async () =>
    (await page.evaluate(`[...document.querySelectorAll(".recharts-cartesian-axis-tick-value")]
      .filter((tick) => {
        const chart = tick.closest("svg").getBoundingClientRect();
        const box = tick.getBoundingClientRect();
        return box.left < chart.left - 0.5 || box.right > chart.right + 0.5 || box.top < chart.top - 0.5 || box.bottom > chart.bottom + 0.5;
      })
      .map((tick) => tick.textContent)`)) as string[];

  const keyRow = () => page.locator("tr[data-key-id]").filter({ has: page.locator("code", { hasText: consoleKey.slice(0, 15) }) });

  it("signs in through the one-time link the operator's CLI printed, setting a password", async () => {
    const redis = await connectRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    const ctx = testContext(stack.db, redis, { CONSOLE_URL: `${stack.api}/console` });
    await createConsoleUser(ctx, partner.partnerId, "ops@partner.example");
    await redis.quit();
    const { sign_in_url } = ctx.out.results[0] as { sign_in_url: string };

    // Without a session every page leads to sign-in.
    await visit("/", "Sign in", "sign-in");

    await page.goto(sign_in_url);
    await page.getByRole("heading", { level: 1, name: "Set your password" }).waitFor();
    await check("set-password");
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    // The spent token is gone from the address bar.
    expect(page.url()).not.toContain("token=");
    await page.getByText(/ops@partner\.example/).waitFor();
  }, 60_000);

  it("creates an API key, shown once, that works with the API; the list shows its last use", async () => {
    await openSection("API keys");
    await page.getByRole("button", { name: "Create a key" }).click();
    consoleKey = (await page.getByTestId("new-key").textContent()) ?? "";
    expect(consoleKey).toMatch(/^svc_test_/);
    await page.getByRole("button", { name: "Copy the key" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    await check("keys-created");

    client = new SweepClient({ baseUrl: stack.api, apiKey: consoleKey });
    expect(await client.hotWallets.list()).toEqual([]);

    await page.reload();
    await expect(keyRow().getByTestId("last-used").textContent()).resolves.not.toBe("never");
    // Shown once: after a reload the page has only the key's prefix.
    expect(await page.content()).not.toContain(consoleKey);
  }, 60_000);

  it("registers a hot wallet and follows its delegate's deployment", async () => {
    await openSection("Hot wallets");
    await page.getByLabel("Chain").selectOption(String(CHAIN_ID));
    await page.getByLabel("Address").fill(hotWallet);
    await page.getByRole("button", { name: "Register" }).click();
    const row = page.locator(`tr[data-address="${hotWallet}"]`);
    await row.getByText("active").waitFor({ timeout: 30_000 });
    expect(await row.locator("code.hash").textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    await check("hot-wallets");
  }, 60_000);

  it("shows a sweep made through the API swept, with its fee against the classic benchmark", async () => {
    const [wallet] = await client.hotWallets.list();
    const { owner, authorization } = await fundedDeposit(stack.chain(CHAIN_ID), wallet!.delegate, 25_000_000n);
    depositOwner = owner;
    const created = await client.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });
    sweep = await client.waitForSweep(created.id, { timeoutMs: 30_000, intervalMs: 200 });
    expect(sweep).toMatchObject({ status: "swept", swept_amount: "25000000", fee: expect.stringMatching(/^\d+$/) });

    await openSection("Sweeps", "sweeps");
    const row = page.locator(`tr[data-sweep-id="${sweep.id}"]`);
    expect(await row.getByTestId("sweep-status").textContent()).toBe("swept");
    // Amounts in units with their symbol (BSC testnet's USDT has 18 decimals), the base units on hover.
    expect(await row.getByTestId("sweep-fee").textContent()).toBe(inUnits(sweep.fee!, "tBNB"));
    expect(await row.getByTestId("sweep-fee").locator("[data-base-units]").getAttribute("title")).toBe(`${sweep.fee} wei`);
    expect(await row.textContent()).toContain(inUnits("25000000", "USDT"));

    await row.getByRole("link").click();
    await shown("Sweep", "sweep-detail");
    expect(page.url()).toBe(`${stack.api}/console/sweeps/${sweep.id}`);
    expect(await page.getByTestId("detail-status").textContent()).toBe("swept");
    expect(await page.getByTestId("detail-fee").textContent()).toBe(inUnits(sweep.fee!, "tBNB"));
    expect(await page.getByTestId("detail-swept-amount").getAttribute("data-base-units")).toBe("25000000");
    // A first sweep alone in its batch, with its authorization: it cost more than the classic transfer, and the page says why.
    const price = BigInt(sweep.gas_cost!) / BigInt(sweep.gas!);
    expect(BigInt(sweep.gas_cost!) + BigInt(sweep.fee!)).toBeGreaterThan(BigInt(sweep.classic_gas!) * price);
    const why = (await page.getByTestId("first-sweep-cost").textContent()) ?? "";
    expect(why).toContain("first sweep");
    expect(why).toContain("alone in its batch");
    const comparison = (await page.getByTestId("fee-comparison").textContent()) ?? "";
    expect(comparison).toContain(`${sweep.classic_gas!.toLocaleString("en-US")} gas`);
    expect(comparison).toMatch(/of the classic cost/);
    expect(await page.getByTestId("sweep-detail").textContent()).toContain(owner.address);

    // The API's filters: a status the sweep does not have lists nothing.
    await openSection("Sweeps");
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("No sweeps match.").waitFor();
    expect(page.url()).toContain("status=failed");

    // One search box: by the batch's transaction hash, by external_id (none here: an SDK sweep makes one up), and by id.
    await page.getByLabel("Find a sweep").fill(sweep.tx_hash!);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page.locator(`tr[data-sweep-id="${sweep.id}"]`).waitFor();
    expect(page.url()).toContain(`tx_hash=${sweep.tx_hash}`);
    await page.getByLabel("Find a sweep").fill(sweep.external_id!);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page.locator(`tr[data-sweep-id="${sweep.id}"]`).getByText(sweep.external_id!).waitFor();
    await page.getByLabel("Find a sweep").fill(sweep.id.toUpperCase());
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await shown("Sweep");
    expect(page.url()).toBe(`${stack.api}/console/sweeps/${sweep.id}`);

    // A sweep id that is not this account's is not found, said in words with the API's code.
    await visit(`/sweeps/${randomUUID()}`, "Sweep");
    expect(await page.getByRole("alert").textContent()).toMatch(/^Not found in this account: .*\[not_found\]$/);
  }, 60_000);

  it("draws the day's usage on the overview with the API's figures", async () => {
    const usage = (await (await fetch(`${stack.api}/v1/usage?days=1&chain_id=${CHAIN_ID}`, { headers: { Authorization: `Bearer ${consoleKey}` } })).json()) as {
      days: { date: string; sweeps_done: number; gas_spent: string; fees: string }[];
    };
    const today = usage.days[0]!;
    expect(today.sweeps_done).toBe(1);

    await openSection("Overview", "overview");
    const figures = page.getByTestId(`usage-today-${CHAIN_ID}`);
    expect(await figures.getByTestId("today-done").textContent()).toBe("1 sweeps done");
    const row = page.getByTestId(`usage-table-${CHAIN_ID}`).locator(`tr[data-date="${today.date}"]`);
    expect(await row.locator("td").allTextContents()).toEqual(["1", "0", "0", "0", inUnits(today.gas_spent, "tBNB"), inUnits(today.fees, "tBNB")]);
    // The chart is drawn: SVG bars, today's among them.
    const bars = page.getByTestId(`sweeps-chart-${CHAIN_ID}`).locator("svg .recharts-bar-rectangle path");
    expect(await bars.count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator(".recharts-cartesian-axis-tick-value").count()).toBeGreaterThan(4);
    expect(await clippedTicks()).toEqual([]);
    // Sepolia, where this account did nothing, says so instead of drawing empty axes.
    await page.getByTestId("chain-11155111").getByTestId("no-activity").waitFor();
    expect(await page.getByTestId("chain-11155111").locator("svg").count()).toBe(0);

    await page.getByLabel("Last 90 days").check();
    await page.getByText("Sweeps per day, last 90 days: done, failed and rejected").first().waitFor();
    expect(await page.getByTestId(`usage-table-${CHAIN_ID}`).locator("tbody tr").count()).toBe(90);
    await check("overview-90-days");
  }, 60_000);

  it("sets a webhook, shows its secret on demand, sends a test event and resends it", async () => {
    await openSection("Webhook");
    await page.getByLabel("URL").fill(receiver.url("/console-hook"));
    await page.getByRole("button", { name: "Save webhook" }).click();
    await page.getByRole("button", { name: "Show" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(secret).toBe((await client.webhook.get()).secret);
    receiver.route("/console-hook", secret, (res) => res.writeHead(200).end());

    await page.getByRole("button", { name: "Send a test event" }).click();
    const delivered = await eventually("the test event's delivery", async () => receiver.received("/console-hook")[0], 15_000);
    const eventId = (JSON.parse(delivered.body) as { id: string }).id;
    // The log keeps one row per event: a resend starts it over.
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    const shownDelivered = () =>
      eventually("the delivery shown delivered", async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        return (await row.getAttribute("data-status", { timeout: 1_000 }).catch(() => null)) === "delivered" || undefined;
      }, 15_000);
    await shownDelivered();

    await row.getByRole("button", { name: /^Resend/ }).click();
    await page.getByText(`webhook.test ${eventId} queued again.`).waitFor();
    await eventually("the resent delivery", async () => receiver.received("/console-hook")[1], 15_000);
    const [first, again] = receiver.received("/console-hook");
    expect(JSON.parse(again!.body).id).toBe(eventId);
    expect([first!.verified, again!.verified]).toEqual([true, true]);
    await shownDelivered();
    await check("webhook");
  }, 60_000);

  it("shows a revocation made through the API, then the ledger with its CSV, the tariff and the settings", async () => {
    // The deposit address's delegation ends: its authorization of the zero address at its next nonce (1: the sweep's delegation used 0).
    const authorization = authorizationBody(depositOwner.authorizeSync({ address: ZeroAddress, nonce: 1n, chainId: BigInt(CHAIN_ID) }));
    const requested = await client.revocations.create({ chain_id: CHAIN_ID, account: depositOwner.address, authorization });
    const revocation = await client.waitForRevocation(requested.id, { timeoutMs: 30_000, intervalMs: 200 });
    expect(revocation.status).toBe("revoked");
    await openSection("Revocations", "revocations");
    await page.locator("table[data-testid=revocations] tbody tr").first().getByRole("link").click();
    await shown("Revocation", "revocation-detail");
    const detail = (await page.getByTestId("revocation-detail").textContent()) ?? "";
    expect(detail).toContain(revocation.id);
    expect(detail).toContain(revocation.tx_hash);
    expect(detail).toContain("revoked");

    // A deposit to it, now in the inventory: detected and shown on its entry once confirmed.
    await stack.chain(CHAIN_ID).mintUsdt(depositOwner.address, 2_000_000n);
    await eventually("the deposit confirmed", async () => ((await client.deposits.page({ address: depositOwner.address, status: "confirmed" })).items.some((d) => d.amount === "2000000") ? true : undefined), 30_000);
    await openSection("Deposit addresses", "deposit-addresses");
    const entry = page.getByTestId("deposit-addresses").locator("tbody tr", { has: page.locator(`code[title="${depositOwner.address}"]`) });
    expect(await entry.textContent()).toContain("revoked");
    expect(await entry.textContent()).toContain(`${inUnits("2000000", "USDT")}, confirmed`);

    // A stranger carries the deposit address's own authorization of a drainer: the firewall marks it, and every page says so.
    const chain = stack.chain(CHAIN_ID);
    const stranger = Wallet.createRandom().connect(chain.provider);
    await chain.setBalance(stranger.address, parseEther("1"));
    const drain = depositOwner.authorizeSync({ address: Wallet.createRandom().address, nonce: BigInt(await chain.provider.getTransactionCount(depositOwner.address)), chainId: BigInt(CHAIN_ID) });
    await (await stranger.sendTransaction({ type: 4, to: stranger.address, authorizationList: [drain] })).wait();
    await eventually("the address compromised", async () => ((await client.depositAddresses.page({ delegation: "compromised" })).items.length > 0 ? true : undefined), 30_000);
    await openSection("Deposit addresses");
    // The banner leads to them, as a person follows it.
    await page.getByTestId("compromised-banner").getByRole("link", { name: "See them" }).click();
    await shown("Deposit addresses");
    await entry.getByText("compromised").waitFor();
    expect(await page.getByTestId("deposit-addresses").locator("tbody tr").count()).toBe(1);
    await check("deposit-addresses-compromised");

    // A sweep of the compromised address is rejected before anything is sent: its page promises no fee.
    const refused = await client.sweeps.create({ chain_id: CHAIN_ID, hot_wallet: hotWallet, account: depositOwner.address, token: "USDT" });
    expect(await client.waitForSweep(refused.id, { timeoutMs: 30_000, intervalMs: 200 })).toMatchObject({ status: "rejected" });
    await visit(`/sweeps/${refused.id}`, "Sweep", "sweep-detail-rejected");
    const noFee = (await page.getByTestId("fee-pending").textContent()) ?? "";
    expect(noFee).toMatch(/^No fee: the sweep was rejected/);
    expect(noFee).not.toContain("once the sweep is swept");

    await openSection("Ledger", "ledger");
    const ledgerRows = page.getByTestId("ledger").locator("tbody tr");
    expect(await ledgerRows.count()).toBeGreaterThanOrEqual(1);
    // Each row's balance after it, and the newest one's is the period's closing balance; the gas wallet's
    // coin in units (hover for wei); every gas row names what it paid for.
    const entries = (await (await fetch(`${stack.api}/v1/ledger?chain_id=${CHAIN_ID}`, { headers: { Authorization: `Bearer ${consoleKey}` } })).json()) as {
      items: Array<{ kind: string; tx_hash: string | null; balance_after: string; paid_for: { kind: string } | null }>;
    };
    expect(await ledgerRows.first().getByTestId("ledger-balance-after").textContent()).toBe(inUnits(entries.items[0]!.balance_after, "tBNB"));
    expect(await page.getByTestId("ledger-totals").locator(`tr[data-chain-id="${CHAIN_ID}"]`).getByTestId("ledger-closing").textContent()).toBe(inUnits(entries.items[0]!.balance_after, "tBNB"));
    expect(entries.items.filter((e) => e.kind === "gas").map((e) => e.paid_for?.kind)).toEqual(expect.arrayContaining(["sweep_batch", "revocation_batch", "delegate_deployment"]));
    const sweepGas = page.getByTestId("ledger").locator('tr[data-kind="gas"]', { has: page.locator(`code[title="${sweep.tx_hash}"]`) });
    expect(await sweepGas.getByTestId("ledger-paid-for").textContent()).toBe("a batch of 1 sweep");
    // A date range of whole UTC days: today's entries are all of them; tomorrow has none, and the totals say so.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From (UTC day)").fill(today);
    await page.getByLabel("To (UTC day, included)").fill(today);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByRole("heading", { name: `Totals from ${today} to ${today} (UTC)` }).waitFor();
    await shown("Ledger", "ledger-today");
    expect(await ledgerRows.count()).toBe(entries.items.length);
    const csvHref = await page.getByTestId("ledger-csv").getAttribute("href");
    expect(csvHref).toContain(`created_after=${today}T00%3A00%3A00.000Z`);
    const csv = await page.evaluate(async (href) => (await fetch(href!)).text(), csvHref);
    expect(csv.split(/\r?\n/)[0]).toBe("id,created_at,chain_id,kind,amount,balance_after,paid_for,batch_id,tx_hash,sweep_id,note,coin,amount_coin,balance_after_coin");
    expect(csv).toContain(sweep.tx_hash);
    expect(csv).toContain(",sweep_batch,");
    await page.getByLabel("From (UTC day)").fill(tomorrow);
    await page.getByLabel("To (UTC day, included)").fill(tomorrow);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("No entries match.").waitFor();
    expect(await page.getByTestId("ledger-totals").locator(`tr[data-chain-id="${CHAIN_ID}"]`).getByTestId("ledger-closing").textContent()).toBe(inUnits(entries.items[0]!.balance_after, "tBNB"));
    // The sweep batch's gas row leads to the sweeps of that transaction.
    await visit("/ledger", "Ledger");
    await sweepGas.getByRole("link", { name: "a batch of 1 sweep" }).click();
    await shown("Sweeps");
    await page.locator(`tr[data-sweep-id="${sweep.id}"]`).waitFor();
    expect(page.url()).toContain(`tx_hash=${sweep.tx_hash}`);

    await openSection("Tariff", "tariff");
    await openSection("Settings", "settings");
    await page.getByLabel("Keep one unit on deposit addresses").check();
    await page.getByText("keep_one_unit is on.").waitFor();
    expect(await client.settings.get()).toEqual({ keep_one_unit: true, fee_ceilings: [] });
    await page.getByLabel("Max fee per gas on BSC Testnet (wei)").fill("30000000000");
    await page.getByRole("button", { name: "Save fee ceilings" }).click();
    await page.getByText("Fee ceilings: BSC Testnet 30 gwei.").waitFor();
    expect((await client.settings.get()).fee_ceilings).toEqual([{ chain_id: CHAIN_ID, max_fee_per_gas: "30000000000" }]);

    // A sweep policy, set off: the service would sweep the account's addresses by itself once it is on.
    await openSection("Sweep policies", "sweep-policies-empty");
    await page.getByLabel("Chain", { exact: true }).selectOption(String(CHAIN_ID));
    await page.getByLabel("Token", { exact: true }).fill("usdt");
    await page.getByLabel("Minimum balance to sweep (smallest units)").fill("5000000");
    await page.getByLabel("Schedule", { exact: true }).selectOption("daily");
    await page.getByLabel("At (UTC)").fill("02:30");
    await page.getByLabel("On", { exact: true }).uncheck();
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText(`The USDT policy on chain ${CHAIN_ID} is off.`).waitFor();
    const policyRow = page.getByTestId("sweep-policies").locator("tbody tr");
    await policyRow.first().waitFor();
    expect(await policyRow.textContent()).toContain("daily at 02:30 UTC");
    expect(await client.sweepPolicies.list()).toMatchObject([{ chain_id: CHAIN_ID, token: "USDT", enabled: false, min_balance: "5000000", schedule: "daily", at: "02:30" }]);
    await check("sweep-policies");
  }, 60_000);

  it("revokes the key: the API answers 401 to it at once", async () => {
    await openSection("API keys");
    page.once("dialog", (dialog) => void dialog.accept());
    await keyRow().getByRole("button", { name: /^Revoke/ }).click();
    await keyRow().getByText(/^revoked/).waitFor();
    await check("keys-revoked");
    await expect(client.hotWallets.list()).rejects.toMatchObject({ status: 401, code: "unauthorized" });
  }, 60_000);

  it("signs out, and signs in again with the email and password", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill("ops@partner.example");
    // Signed out, the session check is an answer, not a failed request the browser logs.
    expect(failedLoads.filter((load) => load.endsWith("/console/api/session"))).toEqual([]);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    // One short sentence, no code.
    expect(await page.getByTestId("sign-in-failure").textContent()).toBe("The email or password is wrong.");
    await check("sign-in-failed");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  }, 60_000);

  it("shows a disabled partner's state", async () => {
    await stack.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: false } });
    await page.goto(`${stack.api}/console/`);
    await page.getByTestId("partner-disabled").waitFor();
    await page.getByText("[partner_disabled]").first().waitFor();
    await check("partner-disabled");
  }, 60_000);

  it("looks a request up in the request log by the id its answer carried: route template, status and error code", async () => {
    // Enabled again: a disabled account's requests are refused before its partner is known, so none is logged.
    await stack.db.partner.update({ where: { id: partner.partnerId }, data: { enabled: true } });
    await visit("/requests", "Requests");
    // A request of the session's that fails, as a support case starts: its id from the answer's header.
    const requestId = await page.evaluate(async (id) => (await fetch(`/v1/sweeps/${id}`)).headers.get("X-Request-Id"), randomUUID());
    expect(requestId).toMatch(/^req_/);
    // The log is written behind the answers, within a second.
    await eventually("the request in the log", async () => ((await page.evaluate(async (id) => (await fetch(`/v1/requests/${id}`)).status, requestId!)) === 200 ? true : undefined), 10_000);

    await page.getByLabel("Request id").fill(requestId!);
    await page.getByRole("button", { name: "Look up" }).click();
    const detail = page.getByTestId("request-detail");
    await detail.getByText("/v1/sweeps/:id").waitFor();
    const shownDetail = (await detail.textContent()) ?? "";
    expect(shownDetail).toContain(requestId);
    expect(shownDetail).toContain("GET");
    expect(shownDetail).toContain("404");
    expect(shownDetail).toContain("not_found");
    expect(page.url()).toContain(`request_id=${requestId}`);
    await check("requests");

    // Linked by its id, as support would send it; the recent requests list it too.
    await visit(`/requests?request_id=${requestId}`, "Requests");
    await page.getByTestId("request-detail").getByText("/v1/sweeps/:id").waitFor();
    expect(await page.getByTestId("requests").locator("tbody tr", { has: page.locator("code", { hasText: requestId! }) }).textContent()).toContain("not_found");
    // Another id is not found in this account, said in words with the API's code.
    await visit(`/requests?request_id=req_${"x".repeat(16)}`, "Requests");
    expect(await page.getByRole("alert").filter({ hasText: "[not_found]" }).textContent()).toMatch(/^Not found in this account: .*\[not_found\]$/);
  }, 60_000);

  it("fits every page on a 390 px phone, without a horizontal scroll, and has a favicon", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pages: Array<[string, string]> = [
      ["/", "Overview"],
      ["/keys", "API keys"],
      ["/hot-wallets", "Hot wallets"],
      ["/sweeps", "Sweeps"],
      [`/sweeps/${sweep.id}`, "Sweep"],
      ["/revocations", "Revocations"],
      ["/deposit-addresses", "Deposit addresses"],
      ["/sweep-policies", "Sweep policies"],
      ["/ledger", "Ledger"],
      ["/tariff", "Tariff"],
      ["/webhook", "Webhook"],
      ["/settings", "Settings"],
      ["/requests", "Requests"],
    ];
    const overflowing: string[] = [];
    for (const [pagePath, heading] of pages) {
      await visit(pagePath, heading);
      const width = (await page.evaluate("document.documentElement.scrollWidth")) as number;
      if (width > 390) overflowing.push(`${pagePath}: ${width} px`);
    }
    expect(overflowing).toEqual([]);
    await visit("/", "Overview", "overview-390");
    expect(await clippedTicks()).toEqual([]);
    await visit(`/sweeps/${sweep.id}`, "Sweep", "sweep-detail-390");
    await visit("/ledger", "Ledger", "ledger-390");

    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    const served = await page.evaluate(async (href) => {
      const response = await fetch(href!);
      return { status: response.status, type: response.headers.get("content-type") };
    }, icon);
    expect(served).toEqual({ status: 200, type: expect.stringMatching(/^image\/svg\+xml/) });
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 90_000);

  it("ran every page without a CSP violation or a script error", () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
