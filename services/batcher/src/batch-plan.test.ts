import { accountKey, balanceKey, planBatch, type CandidateSweep } from "./batch-plan";
import { BATCH_BASE_GAS, ITEM_GAS, ITEM_GAS_WITH_AUTHORIZATION } from "./gas-budget";
import type { PolicyRules } from "./policies/policy-rules";
import type { AccountState } from "./pre-send-checks";

/** A policy's rules: a gas price of at most `maxFeePerGas`, a cost of at most `maxCostBps` of the native coin moved. */
const rules = (maxFeePerGas: bigint | null, maxCostBps: number | null = null): PolicyRules => ({ maxFeePerGas, maxCostBps, tokenValue: null });

const delegate = "0x52908400098527886E0F7030069857D2E4169EE7";
const token = "0x00000000000000000000000000000000000000Aa";
const address = { A: "0x000000000000000000000000000000000000000A", B: "0x000000000000000000000000000000000000000b", C: "0x000000000000000000000000000000000000000C" };
type Who = keyof typeof address;

const plain: AccountState = { code: "0x", nonce: 0, nativeBalance: 0n };
const delegated: AccountState = { code: `0xef0100${delegate.slice(2)}`, nonce: 1, nativeBalance: 0n };
const withNative: AccountState = { ...plain, nativeBalance: 5n };

interface Row {
  sweeps: Array<[id: string, who: Who, options?: { amount?: bigint; keep?: boolean; native?: boolean; auth?: number; policy?: PolicyRules }]>;
  accounts: Partial<Record<Who, AccountState>>;
  tokens?: Partial<Record<Who, bigint>>;
  pending?: Who[];
  /** items that fit besides the base; default plenty */
  budget?: bigint;
  /** marked compromised by the delegation firewall */
  compromised?: Who[];
  /** the gas price policies are judged at (1 gwei by default); null: unknown */
  gasPrice?: bigint | null;
}

interface Expected {
  items?: Array<[id: string, kind: string, withAuthorization: boolean]>;
  rejected?: Array<[id: string, reason: string]>;
  waiting?: Array<[id: string, reason: string]>;
}

function plan(row: Row) {
  const sweeps: CandidateSweep[] = row.sweeps.map(([id, who, o = {}]) => ({
    id,
    account: address[who],
    tokenAddress: o.native ? null : token,
    amount: o.amount ?? null,
    keepOneUnit: o.keep ?? false,
    authorization: o.auth === undefined ? null : { address: delegate, nonce: o.auth },
    token: o.native ? "ETH" : "USDT",
    policy: o.policy ?? null,
  }));
  const entries = <T>(m: Partial<Record<Who, T>>) => Object.entries(m) as Array<[Who, T]>;
  return planBatch({
    delegate,
    sweeps,
    chain: {
      accounts: new Map(entries(row.accounts).map(([who, state]) => [accountKey(address[who]), state])),
      tokenBalances: new Map(entries(row.tokens ?? {}).map(([who, balance]) => [balanceKey(address[who], token), balance])),
    },
    pendingAuthorizations: new Set((row.pending ?? []).map((who) => accountKey(address[who]))),
    compromised: new Set((row.compromised ?? []).map((who) => accountKey(address[who]))),
    gasBudget: row.budget === undefined ? 10n ** 9n : BATCH_BASE_GAS + row.budget,
    market: row.gasPrice === null ? null : { gasPrice: row.gasPrice ?? 10n ** 9n, tariff: { rateBps: 0, nativeMarkupBps: 0 } },
  });
}

describe("planning a batch: the checks before sending", () => {
  it.each<[string, Row, Expected]>([
    ["a delegated address is swept without authorization", { sweeps: [["s1", "A"]], accounts: { A: delegated }, tokens: { A: 10n } }, { items: [["s1", "repeat", false]] }],
    [
      "an authorization sent for an address already delegated is not carried",
      { sweeps: [["s1", "A", { auth: 0 }]], accounts: { A: delegated }, tokens: { A: 10n } },
      { items: [["s1", "repeat", false]] },
    ],
    ["a token-only address is delegated by its authorization: first_new", { sweeps: [["s1", "A", { auth: 0 }]], accounts: { A: plain }, tokens: { A: 10n } }, { items: [["s1", "first_new", true]] }],
    ["an address holding native coin: first", { sweeps: [["s1", "A", { auth: 0 }]], accounts: { A: withNative }, tokens: { A: 10n } }, { items: [["s1", "first", true]] }],
    ["an address that sent transactions: first", { sweeps: [["s1", "A", { auth: 4 }]], accounts: { A: { ...plain, nonce: 4 } }, tokens: { A: 10n } }, { items: [["s1", "first", true]] }],
    [
      "compromised: rejected foreign_delegation whatever the chain says, even unread; the others go on",
      { sweeps: [["s1", "A", { auth: 0 }], ["s2", "B"], ["s3", "A"]], accounts: { B: delegated }, tokens: { B: 10n }, compromised: ["A"] },
      { items: [["s2", "repeat", false]], rejected: [["s1", "foreign_delegation"], ["s3", "foreign_delegation"]] },
    ],
    ["no authorization and not delegated: not_upgraded", { sweeps: [["s1", "A"]], accounts: { A: plain }, tokens: { A: 10n } }, { rejected: [["s1", "not_upgraded"]] }],
    [
      "delegated to another delegate, without authorization: not_upgraded",
      { sweeps: [["s1", "A"]], accounts: { A: { ...plain, code: `0xef0100${"12".repeat(20)}` } }, tokens: { A: 10n } },
      { rejected: [["s1", "not_upgraded"]] },
    ],
    [
      "delegated to another delegate, with authorization: re-delegated, first",
      { sweeps: [["s1", "A", { auth: 1 }]], accounts: { A: { ...plain, nonce: 1, code: `0xef0100${"12".repeat(20)}` } }, tokens: { A: 10n } },
      { items: [["s1", "first", true]] },
    ],
    ["contract code: not_upgraded even with an authorization", { sweeps: [["s1", "A", { auth: 0 }]], accounts: { A: { ...plain, code: "0x6080" } }, tokens: { A: 10n } }, { rejected: [["s1", "not_upgraded"]] }],
    ["an authorization of another nonce: stale_authorization", { sweeps: [["s1", "A", { auth: 0 }]], accounts: { A: { ...plain, nonce: 1 } }, tokens: { A: 10n } }, { rejected: [["s1", "stale_authorization"]] }],
    ["more than the balance: would_fail", { sweeps: [["s1", "A", { amount: 11n }]], accounts: { A: delegated }, tokens: { A: 10n } }, { rejected: [["s1", "would_fail"]] }],
    ["an empty address: nothing_to_sweep", { sweeps: [["s1", "A"]], accounts: { A: delegated }, tokens: { A: 0n } }, { rejected: [["s1", "nothing_to_sweep"]] }],
    ["keep_one_unit of one unit: nothing_to_sweep", { sweeps: [["s1", "A", { keep: true }]], accounts: { A: delegated }, tokens: { A: 1n } }, { rejected: [["s1", "nothing_to_sweep"]] }],
    ["a native sweep of an empty address: nothing_to_sweep", { sweeps: [["s1", "A", { native: true }]], accounts: { A: delegated } }, { rejected: [["s1", "nothing_to_sweep"]] }],
    ["a native sweep", { sweeps: [["s1", "A", { native: true }]], accounts: { A: { ...delegated, nativeBalance: 3n } } }, { items: [["s1", "repeat", false]] }],
    [
      "the delegation is checked before the balance",
      { sweeps: [["s1", "A"]], accounts: { A: plain }, tokens: { A: 0n } },
      { rejected: [["s1", "not_upgraded"]] },
    ],
  ])("%s", (_title, row, expected) => {
    expectPlan(plan(row), expected);
  });
});

describe("planning a batch: sweeps that depend on each other", () => {
  it.each<[string, Row, Expected]>([
    [
      "two sweeps of one address with authorizations: only the first carries one",
      { sweeps: [["s1", "A", { auth: 0, amount: 5n }], ["s2", "A", { auth: 0, amount: 1n }]], accounts: { A: plain }, tokens: { A: 10n } },
      { items: [["s1", "first_new", true], ["s2", "repeat", false]], rejected: [] },
    ],
    [
      "a sweep without authorization rides after a later one that carries it",
      { sweeps: [["s1", "A", { amount: 3n }], ["s2", "B", { auth: 0 }], ["s3", "A", { auth: 0, amount: 4n }]], accounts: { A: plain, B: plain }, tokens: { A: 10n, B: 10n } },
      { items: [["s2", "first_new", true], ["s3", "first_new", true], ["s1", "repeat", false]] },
    ],
    [
      "a stale authorization rides on a usable one of the same address",
      { sweeps: [["s1", "A", { auth: 0, amount: 1n }], ["s2", "A", { auth: 2, amount: 1n }]], accounts: { A: { ...plain, nonce: 2 } }, tokens: { A: 10n } },
      { items: [["s2", "first", true], ["s1", "repeat", false]], rejected: [] },
    ],
    [
      "a sweep waits for an authorization another sweep of the hot wallet holds",
      { sweeps: [["s1", "A"], ["s2", "B", { auth: 0 }]], accounts: { A: plain, B: plain }, tokens: { A: 10n, B: 10n }, pending: ["A"] },
      { items: [["s2", "first_new", true]], waiting: [["s1", "awaiting_delegation"]], rejected: [] },
    ],
    [
      "a stale authorization waits too while another one is pending",
      { sweeps: [["s1", "A", { auth: 9 }]], accounts: { A: plain }, tokens: { A: 10n }, pending: ["A"] },
      { items: [], waiting: [["s1", "awaiting_delegation"]], rejected: [] },
    ],
    [
      "a carrier rejected by its balance leaves the authorization to the next sweep",
      { sweeps: [["s1", "A", { auth: 0, amount: 50n }], ["s2", "A"], ["s3", "A", { auth: 0 }]], accounts: { A: plain }, tokens: { A: 10n } },
      { items: [["s3", "first_new", true]], rejected: [["s1", "would_fail"], ["s2", "nothing_to_sweep"]] },
    ],
    [
      "without any carrier, riders are rejected with their own reason",
      { sweeps: [["s1", "A"], ["s2", "A", { auth: 5 }]], accounts: { A: plain }, tokens: { A: 10n } },
      { items: [], rejected: [["s1", "not_upgraded"], ["s2", "stale_authorization"]] },
    ],
    [
      "balances are what the earlier items leave",
      {
        sweeps: [["s1", "A", { amount: 4n }], ["s2", "A"], ["s3", "A"], ["s4", "B", { keep: true }], ["s5", "B", { amount: 1n, keep: true }]],
        accounts: { A: delegated, B: delegated },
        tokens: { A: 10n, B: 10n },
      },
      { items: [["s1", "repeat", false], ["s2", "repeat", false], ["s4", "repeat", false]], rejected: [["s3", "nothing_to_sweep"], ["s5", "nothing_to_sweep"]] },
    ],
    [
      "the native coin and a token of one address are separate balances",
      { sweeps: [["s1", "A", { native: true }], ["s2", "A"]], accounts: { A: { ...delegated, nativeBalance: 7n } }, tokens: { A: 10n } },
      { items: [["s1", "repeat", false], ["s2", "repeat", false]] },
    ],
    [
      "a sweep whose address was not read waits",
      { sweeps: [["s1", "A"], ["s2", "B"], ["s3", "C", { native: true }]], accounts: { A: delegated, C: delegated }, tokens: { A: 10n, B: 10n } },
      { items: [["s1", "repeat", false]], waiting: [["s2", "unread"]], rejected: [["s3", "nothing_to_sweep"]] },
    ],
  ])("%s", (_title, row, expected) => {
    expectPlan(plan(row), expected);
  });
});

describe("planning a batch: the gas limit", () => {
  it.each<[string, Row, Expected]>([
    [
      "items stop at the budget; everything after waits undecided",
      {
        sweeps: [["s1", "A", { auth: 0 }], ["s2", "B", { auth: 0 }], ["s3", "C", { auth: 0 }], ["s4", "A", { amount: 999n }]],
        accounts: { A: plain, B: plain, C: plain },
        tokens: { A: 10n, B: 10n, C: 10n },
        budget: 2n * ITEM_GAS_WITH_AUTHORIZATION,
      },
      { items: [["s1", "first_new", true], ["s2", "first_new", true]], waiting: [["s3", "gas_limit"], ["s4", "gas_limit"]], rejected: [] },
    ],
    [
      "repeat items cost less, so more fit",
      { sweeps: [["s1", "A", { amount: 1n }], ["s2", "A", { amount: 1n }], ["s3", "A", { amount: 1n }]], accounts: { A: delegated }, tokens: { A: 10n }, budget: ITEM_GAS_WITH_AUTHORIZATION },
      { items: [["s1", "repeat", false], ["s2", "repeat", false]], waiting: [["s3", "gas_limit"]] },
    ],
    [
      "one item goes in even when it alone is over the budget",
      { sweeps: [["s1", "A", { auth: 0 }], ["s2", "B"]], accounts: { A: plain, B: delegated }, tokens: { A: 10n, B: 10n }, budget: 0n },
      { items: [["s1", "first_new", true]], waiting: [["s2", "gas_limit"]] },
    ],
    [
      "a rider that does not fit after its carrier waits",
      { sweeps: [["s1", "A", { amount: 1n }], ["s2", "A", { auth: 0, amount: 5n }]], accounts: { A: plain }, tokens: { A: 10n }, budget: ITEM_GAS_WITH_AUTHORIZATION },
      { items: [["s2", "first_new", true]], waiting: [["s1", "gas_limit"]], rejected: [] },
    ],
    [
      "riders whose carrier did not fit wait",
      { sweeps: [["s1", "B"], ["s2", "A"], ["s3", "A", { auth: 0 }]], accounts: { A: plain, B: delegated }, tokens: { A: 10n, B: 10n }, budget: ITEM_GAS },
      { items: [["s1", "repeat", false]], waiting: [["s3", "gas_limit"], ["s2", "gas_limit"]], rejected: [] },
    ],
    [
      "a policy's sweep over its gas price waits saying so; a partner's sweep goes on",
      { sweeps: [["s1", "A", { policy: rules(10n ** 9n - 1n) }], ["s2", "B"]], accounts: { A: delegated, B: delegated }, tokens: { A: 10n, B: 10n } },
      { items: [["s2", "repeat", false]], waiting: [["s1", "waiting_for_gas_price"]] },
    ],
    ["a policy's sweep at its gas price goes", { sweeps: [["s1", "A", { policy: rules(10n ** 9n) }]], accounts: { A: delegated }, tokens: { A: 10n } }, { items: [["s1", "repeat", false]] }],
    [
      "a policy's sweep whose gas costs more than its share of the coin moved waits cost_above_limit",
      { sweeps: [["s1", "A", { native: true, policy: rules(null, 10_000) }]], accounts: { A: { ...delegated, nativeBalance: ITEM_GAS * 10n ** 9n - 1n } } },
      { waiting: [["s1", "cost_above_limit"]] },
    ],
    [
      "the same moving as much as its gas costs goes",
      { sweeps: [["s1", "A", { native: true, policy: rules(null, 10_000) }]], accounts: { A: { ...delegated, nativeBalance: ITEM_GAS * 10n ** 9n } } },
      { items: [["s1", "repeat", false]] },
    ],
    [
      "a held policy sweep carrying the authorization: its address's other sweeps wait for it, not rejected",
      { sweeps: [["s1", "A", { auth: 0, policy: rules(1n) }], ["s2", "A"]], accounts: { A: plain }, tokens: { A: 10n } },
      { waiting: [["s1", "waiting_for_gas_price"], ["s2", "awaiting_delegation"]] },
    ],
    ["with the gas price unknown, a policy's sweep with rules waits", { sweeps: [["s1", "A", { policy: rules(10n ** 18n) }]], accounts: { A: delegated }, tokens: { A: 10n }, gasPrice: null }, { waiting: [["s1", "waiting_for_gas_price"]] }],
    ["with the gas price unknown, one without rules goes", { sweeps: [["s1", "A", { policy: rules(null) }]], accounts: { A: delegated }, tokens: { A: 10n }, gasPrice: null }, { items: [["s1", "repeat", false]] }],
  ])("%s", (_title, row, expected) => {
    expectPlan(plan(row), expected);
  });
});

describe("planning a batch: sweeps the chain was not read for", () => {
  it.each<[string, Row, Expected]>([
    [
      "one not read waits, holding the most it can cost; past the budget the rest waits for the next batch",
      { sweeps: [["s1", "A"], ["s2", "B", { auth: 0 }], ["s3", "C"]], accounts: { A: delegated }, tokens: { A: 10n }, budget: ITEM_GAS + ITEM_GAS_WITH_AUTHORIZATION },
      { items: [["s1", "repeat", false]], waiting: [["s2", "unread"], ["s3", "gas_limit"]] },
    ],
    [
      "the first in line holds its gas even over the budget; a read sweep after it waits",
      { sweeps: [["s1", "A", { auth: 0 }], ["s2", "B"]], accounts: { B: delegated }, tokens: { B: 10n }, budget: 0n },
      { waiting: [["s1", "unread"], ["s2", "gas_limit"]] },
    ],
    [
      "once the batch is full, a sweep not read waits gas_limit",
      { sweeps: [["s1", "A", { auth: 0 }], ["s2", "B", { auth: 0 }], ["s3", "C"]], accounts: { A: plain, B: plain }, tokens: { A: 10n, B: 10n }, budget: ITEM_GAS_WITH_AUTHORIZATION },
      { items: [["s1", "first_new", true]], waiting: [["s2", "gas_limit"], ["s3", "gas_limit"]] },
    ],
    [
      "a carrier not read (its token balance): its address's read sweep waits for its authorization, not rejected",
      { sweeps: [["s1", "A", { native: true }], ["s2", "A", { auth: 0 }]], accounts: { A: withNative } },
      { waiting: [["s2", "unread"], ["s1", "awaiting_delegation"]] },
    ],
  ])("%s", (_title, row, expected) => {
    expectPlan(plan(row), expected);
  });
});

function expectPlan(actual: ReturnType<typeof plan>, expected: Expected): void {
  expect({
    items: actual.items.map((i) => [i.sweepId, i.kind, i.withAuthorization]),
    rejected: actual.rejections.map((r) => [r.sweepId, r.reason]),
    waiting: actual.waiting.map((w) => [w.sweepId, w.reason]),
  }).toEqual({ items: expected.items ?? [], rejected: expected.rejected ?? [], waiting: expected.waiting ?? [] });
}
