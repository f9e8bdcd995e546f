import { ZeroAddress } from "ethers";
import { scanBlock, type InventoryEntry, type WatchedTransaction } from "./block-scan";

const CHAIN = 97;
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const DEPOSIT = address(0xd1);
const DELEGATE = address(0xde);
const OTHER_DELEGATE = address(0xd2);
const DRAINER = address(0xbad);
const GAS_WALLET = address(0x6a5);
const STRANGER = address(0x5);

const entry = (overrides: Partial<InventoryEntry> = {}): InventoryEntry => ({
  partnerId: "p1",
  address: DEPOSIT,
  delegate: DELEGATE,
  delegates: new Set([DELEGATE, OTHER_DELEGATE]),
  gasWallet: GAS_WALLET,
  ...overrides,
});

const tx = (from: string, authorizations: WatchedTransaction["authorizations"] = [], hash = "0xt"): WatchedTransaction => ({ hash, from, authorizations });
const auth = (target: string, authority: string | null = DEPOSIT, chainId = BigInt(CHAIN)) => ({ authority, chainId, address: target });

describe("the firewall's verdict on a block", () => {
  const inventory = (entries: InventoryEntry[]) => (a: string) => entries.filter((e) => e.address === a);

  it.each<[string, WatchedTransaction[], Array<[kind: string, target?: string]>]>([
    ["a stranger carries the deposit address's authorization of a drainer", [tx(STRANGER, [auth(DRAINER)])], [["delegation_changed", DRAINER]]],
    ["the same for any chain (chain id 0)", [tx(STRANGER, [auth(DRAINER, DEPOSIT, 0n)])], [["delegation_changed", DRAINER]]],
    ["signed for another chain: the chain ignores it", [tx(STRANGER, [auth(DRAINER, DEPOSIT, 1n)])], []],
    ["no key signed it", [tx(STRANGER, [auth(DRAINER, null)])], []],
    ["the partner's gas wallet delegates it to the partner's delegate (a first sweep)", [tx(GAS_WALLET, [auth(DELEGATE)])], []],
    ["to another of the partner's delegates, by anyone", [tx(STRANGER, [auth(OTHER_DELEGATE)])], []],
    ["the partner's gas wallet revokes it (a revocation)", [tx(GAS_WALLET, [auth(ZeroAddress)])], []],
    ["a stranger revokes it", [tx(STRANGER, [auth(ZeroAddress)])], [["delegation_changed", ZeroAddress]]],
    // The chain skips an authorization with a wrong nonce: a stale one of the partner's delegate after the drainer's must not hide it.
    ["a drainer, then the partner's delegate in the same list: the drainer is a candidate (the code after the block decides)", [tx(STRANGER, [auth(DRAINER), auth(DELEGATE)])], [["delegation_changed", DRAINER]]],
    ["the partner's delegate, then a drainer", [tx(STRANGER, [auth(DELEGATE), auth(DRAINER)])], [["delegation_changed", DRAINER]]],
    ["the same drainer twice in one list: one candidate", [tx(STRANGER, [auth(DRAINER), auth(DRAINER)])], [["delegation_changed", DRAINER]]],
    ["the deposit address sends a transaction", [tx(DEPOSIT)], [["activity"]]],
    ["the deposit address sends its own drainer delegation", [tx(DEPOSIT, [auth(DRAINER)])], [["delegation_changed", DRAINER], ["activity"]]],
    ["an address the inventory does not hold", [tx(STRANGER, [auth(DRAINER, address(0x99))]), tx(address(0x99))], []],
  ])("%s", (_situation, transactions, expected) => {
    const hits = scanBlock(CHAIN, transactions, inventory([entry()]));
    expect(hits.map((h) => (h.kind === "delegation_changed" ? [h.kind, h.target] : [h.kind]))).toEqual(expected);
  });

  it("names the transaction, its sender and each partner that holds the address", () => {
    const other = entry({ partnerId: "p2", delegates: new Set([address(0xe0)]), gasWallet: address(0x6a6) });
    const hits = scanBlock(CHAIN, [tx(STRANGER, [auth(DELEGATE)], "0xabc")], inventory([entry(), other]));
    // The first partner's own delegate is foreign to the second partner, who holds the same address.
    expect(hits).toEqual([{ kind: "delegation_changed", entry: other, txHash: "0xabc", sender: STRANGER, target: DELEGATE }]);
  });
});
