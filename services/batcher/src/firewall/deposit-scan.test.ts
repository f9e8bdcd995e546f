import { getAddress, toBeHex, zeroPadValue } from "ethers";
import { TRANSFER_TOPIC, decodeTransfer, depositRecipients, findDeposits, tokensByAddress, type DepositAccount, type RawLog, type ValueTransaction } from "./deposit-scan";

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, "0")}`);
const DEPOSIT = address(0xd1);
const OTHER = address(0xd2);
const USDT = address(0x7e7);
const FAKE_USDT = address(0xfa4e);
const STRANGER = address(0x5);
const tokens = tokensByAddress([{ ticker: "USDT", address: USDT.toLowerCase() }]);

const topic = (a: string) => zeroPadValue(a, 32);
const word = (n: bigint) => toBeHex(n, 32);
const transfer = (overrides: Partial<RawLog> & { to?: string; amount?: bigint } = {}): RawLog => {
  const { to = DEPOSIT, amount = 5_000_000n, ...log } = overrides;
  return { address: USDT, topics: [TRANSFER_TOPIC, topic(STRANGER), topic(to)], data: word(amount), logIndex: "0x3", transactionHash: "0xt1", blockHash: "0xb", ...log };
};
const send = (to: string | null, value: bigint, hash = "0xt2"): ValueTransaction => ({ hash, to, value });
const holders = (accounts: DepositAccount[]) => (a: string) => accounts.filter((account) => account.address === a);
const mine = holders([{ partnerId: "p1", address: DEPOSIT }]);

describe("decodeTransfer", () => {
  it.each<[string, RawLog, { ticker: string; to: string; amount: bigint } | undefined]>([
    ["a listed token's transfer", transfer(), { ticker: "USDT", to: DEPOSIT, amount: 5_000_000n }],
    ["its contract named in lower case by the node", transfer({ address: USDT.toLowerCase() }), { ticker: "USDT", to: DEPOSIT, amount: 5_000_000n }],
    ["the topic in upper case hex", transfer({ topics: [TRANSFER_TOPIC.toUpperCase().replace("0X", "0x"), topic(STRANGER), topic(DEPOSIT)] }), { ticker: "USDT", to: DEPOSIT, amount: 5_000_000n }],
    ["a token not listed (a look-alike of the listed one)", transfer({ address: FAKE_USDT }), undefined],
    ["zero amount: address poisoning", transfer({ amount: 0n }), undefined],
    ["another event of the token (Approval)", transfer({ topics: ["0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925", topic(STRANGER), topic(DEPOSIT)] }), undefined],
    ["four topics: an ERC-721 transfer", transfer({ topics: [TRANSFER_TOPIC, topic(STRANGER), topic(DEPOSIT), word(1n)] }), undefined],
    ["a recipient word with high bytes set", transfer({ topics: [TRANSFER_TOPIC, topic(STRANGER), `0x01${DEPOSIT.slice(2).padStart(62, "0")}`] }), undefined],
    ["data not one word", transfer({ data: "0x" }), undefined],
    ["a log the node marks removed", transfer({ removed: true }), undefined],
  ])("%s", (_, log, expected) => {
    const decoded = decodeTransfer(log, tokens);
    expect(decoded && { ticker: decoded.token.ticker, to: decoded.to, amount: decoded.amount }).toEqual(expected);
  });
});

describe("findDeposits", () => {
  it.each<[string, { transactions: ValueTransaction[]; logs: RawLog[] }, Array<[token: string, amount: bigint, logIndex: number]>]>([
    ["a token transfer to a deposit address", { transactions: [], logs: [transfer()] }, [["USDT", 5_000_000n, 3]]],
    ["native coin sent to it", { transactions: [send(DEPOSIT, 10n ** 16n)], logs: [] }, [["tBNB", 10n ** 16n, -1]]],
    ["a transaction without value to it (a sweep calling its delegate)", { transactions: [send(DEPOSIT, 0n)], logs: [] }, []],
    ["payments to addresses outside the inventory", { transactions: [send(OTHER, 1n)], logs: [transfer({ to: OTHER })] }, []],
    ["a contract creation with value", { transactions: [send(null, 1n)], logs: [] }, []],
    ["both in one block, in transaction then log order", { transactions: [send(DEPOSIT, 7n)], logs: [transfer({ logIndex: "0x0" }), transfer({ logIndex: "0x1", amount: 2n })] }, [["tBNB", 7n, -1], ["USDT", 5_000_000n, 0], ["USDT", 2n, 1]]],
  ])("%s", (_, block, expected) => {
    expect(findDeposits(block, tokens, "tBNB", mine).map((d) => [d.token, d.amount, d.logIndex])).toEqual(expected);
  });

  it("one deposit per partner holding the address", () => {
    const two = holders([{ partnerId: "p1", address: DEPOSIT }, { partnerId: "p2", address: DEPOSIT }]);
    expect(findDeposits({ transactions: [], logs: [transfer()] }, tokens, "ETH", two).map((d) => d.account.partnerId)).toEqual(["p1", "p2"]);
  });

  it("carries the token's address, none for the native coin, and the transaction of each", () => {
    const [native, token] = findDeposits({ transactions: [send(DEPOSIT, 1n, "0xn")], logs: [transfer({ transactionHash: "0xl" })] }, tokens, "ETH", mine);
    expect(native).toMatchObject({ tokenAddress: null, txHash: "0xn" });
    expect(token).toMatchObject({ tokenAddress: USDT, txHash: "0xl" });
  });
});

describe("depositRecipients", () => {
  it("names the recipients of value and of listed tokens' transfers, once each, nothing else", () => {
    const recipients = depositRecipients([send(DEPOSIT, 1n), send(OTHER, 0n), send(null, 5n)], [transfer(), transfer({ to: OTHER, address: FAKE_USDT }), transfer({ to: STRANGER })], tokens);
    expect(recipients.sort()).toEqual([DEPOSIT, STRANGER].sort());
  });
});
