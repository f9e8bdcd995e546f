import { createDb, migrateDatabase } from "@sweep/db";
import { createLogger } from "@sweep/common";
import { createTestDatabase, createTestPartner, queueNames, startTestChain } from "@sweep/testkit";
import { Interface, Wallet, getAddress, hexlify, keccak256, parseEther, randomBytes, toBeHex } from "ethers";
import { DelegationFirewall } from "../services/batcher/src/firewall/delegation-firewall";

// The delegation firewall catching up: FIREWALL_BENCH_INVENTORY deposit addresses (1,000,000) in the
// inventory of one chain, FIREWALL_BENCH_BLOCKS blocks on anvil (200) of FIREWALL_BENCH_TXS plain
// transfers each (20), with a type-4 transaction carrying drainer delegations of inventory addresses
// every tenth block and a transaction sent by an inventory address every twentieth; in every block,
// DEPOSITS_PER_BLOCK of the plain transfers pay inventory addresses (native deposits) and as many
// devnet USDT mints do (token deposits). The firewall reads them from its cursor as a batcher
// restarted behind the head does, detecting the deposits as it goes. Prints blocks per second,
// milliseconds per block, the hits, the deposits, the process's memory and the inventory index's
// size; asserts nothing. The aim: 50 blocks a second (BSC makes one every 0.45 s).

const INVENTORY = Number(process.env.FIREWALL_BENCH_INVENTORY ?? 1_000_000);
const BLOCKS = Number(process.env.FIREWALL_BENCH_BLOCKS ?? 200);
const TXS = Number(process.env.FIREWALL_BENCH_TXS ?? 20);
const CHAIN_ID = 97;
const AIM_BLOCKS_PER_SECOND = 50;
/** inventory addresses whose keys the bench holds, to sign drainer delegations and send transactions */
const KEYED = 200;
/** native and token deposits to inventory addresses in each block, of each kind */
const DEPOSITS_PER_BLOCK = 2;
const INSERT_BATCH = 50_000;

async function main() {
  process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_template";
  await migrateDatabase(process.env.TEMPLATE_DATABASE_URL);
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const chain = await startTestChain(CHAIN_ID);
  const provider = chain.provider;
  try {
    const partner = await createTestPartner(db, "firewall bench");
    await db.hotWallet.create({ data: { partnerId: partner.partnerId, chainId: CHAIN_ID, address: Wallet.createRandom().address, delegate: getAddress(hexlify(randomBytes(20))), status: "active" } });

    const keyed = Array.from({ length: KEYED }, () => new Wallet(hexlify(randomBytes(32)), chain.provider));
    let started = Date.now();
    for (let from = 0; from < INVENTORY; from += INSERT_BATCH) {
      const addresses: string[] = [];
      for (let i = from; i < Math.min(INVENTORY, from + INSERT_BATCH); i++) addresses.push(i < KEYED ? keyed[i]!.address : getAddress(`0x${keccak256(toBeHex(i, 32)).slice(26)}`));
      await db.$executeRaw`
        INSERT INTO deposit_addresses (id, partner_id, chain_id, address, delegation, updated_at)
        SELECT gen_random_uuid(), ${partner.partnerId}::uuid, ${CHAIN_ID}, address, 'delegated', now() FROM unnest(${addresses}::text[]) AS address`;
    }
    await db.$executeRaw`ANALYZE deposit_addresses`;
    console.log(`\nDelegation firewall catching up: ${INVENTORY.toLocaleString("en")} inventory addresses stored in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // The blocks: TXS plain transfers from funded senders, a drainer's type-4 every tenth block, an inventory address's own transaction every twentieth.
    const senders = Array.from({ length: TXS }, () => new Wallet(hexlify(randomBytes(32)), chain.provider));
    for (const wallet of [...senders, ...keyed.slice(0, BLOCKS / 20 + 1)]) await chain.setBalance(wallet.address, parseEther("10"));
    const stranger = new Wallet(hexlify(randomBytes(32)), chain.provider);
    await chain.setBalance(stranger.address, parseEther("10"));
    const minter = new Wallet(hexlify(randomBytes(32)), chain.provider);
    await chain.setBalance(minter.address, parseEther("10"));
    const mint = new Interface(["function mint(address,uint256)"]);
    /** an inventory address no key of the bench holds (above KEYED), a new one each time */
    let paid = KEYED;
    const inventoryAddress = () => getAddress(`0x${keccak256(toBeHex(paid++ % INVENTORY, 32)).slice(26)}`);
    await provider.send("evm_setAutomine", [false]);
    const first = (await provider.getBlockNumber()) + 1;
    const drainer = getAddress(hexlify(randomBytes(20)));
    const feeData = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n };
    started = Date.now();
    let delegated = 0;
    for (let block = 0; block < BLOCKS; block++) {
      const sent = senders.map((sender, i) =>
        sender.signTransaction({ to: i < DEPOSITS_PER_BLOCK ? inventoryAddress() : getAddress(hexlify(randomBytes(20))), value: 1n, nonce: block, gasLimit: 21_000, chainId: CHAIN_ID, type: 2, ...feeData }),
      );
      for (let i = 0; i < DEPOSITS_PER_BLOCK; i++) {
        const data = mint.encodeFunctionData("mint", [inventoryAddress(), 1_000_000n]);
        sent.push(minter.signTransaction({ to: chain.usdt.address, data, nonce: block * DEPOSITS_PER_BLOCK + i, gasLimit: 100_000, chainId: CHAIN_ID, type: 2, ...feeData }));
      }
      if (block % 10 === 0) {
        const victims = keyed.slice(100 + (delegated % 100), 100 + (delegated % 100) + 5);
        delegated += 5;
        const authorizationList = victims.map((victim) => victim.authorizeSync({ address: drainer, nonce: 0n, chainId: BigInt(CHAIN_ID) }));
        sent.push(stranger.signTransaction({ type: 4, to: stranger.address, authorizationList, nonce: block / 10, gasLimit: 300_000, chainId: CHAIN_ID, ...feeData }));
      }
      if (block % 20 === 0) sent.push(keyed[block / 20]!.signTransaction({ to: stranger.address, value: 1n, nonce: 0, gasLimit: 21_000, chainId: CHAIN_ID, type: 2, ...feeData }));
      for (const raw of await Promise.all(sent)) await provider.send("eth_sendRawTransaction", [raw]);
      await provider.send("evm_mine", []);
    }
    await provider.send("evm_setAutomine", [true]);
    const last = await provider.getBlockNumber();
    console.log(`${last - first + 1} blocks of ${TXS}+ transactions made in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    await db.chainWatchCursor.upsert({ where: { chainId: CHAIN_ID }, create: { chainId: CHAIN_ID, nextBlock: BigInt(first) }, update: { nextBlock: BigInt(first) } });
    const firewall = new DelegationFirewall({
      db,
      names: queueNames("firewall-bench"),
      chainId: CHAIN_ID,
      provider,
      tokens: [{ ticker: "USDT", address: chain.usdt.address }],
      nativeTicker: "tBNB",
      // at 1 confirmation (the testnet chains'), the head is final
      finalBlock: async (head) => head,
      logger: createLogger("firewall-bench", "error"),
      maxBlocksPerRound: 100,
    });
    const rssBefore = process.memoryUsage().rss;
    started = performance.now();
    let read = 0;
    while (read < last - first + 1) read += await firewall.runOnce();
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = process.memoryUsage().rss;
    const compromised = await db.depositAddress.count({ where: { partnerId: partner.partnerId, delegation: "compromised" } });
    const deposits = await db.deposit.groupBy({ by: ["token"], where: { partnerId: partner.partnerId }, _count: true });
    const [index] = await db.$queryRaw<Array<{ size: bigint }>>`SELECT pg_relation_size('deposit_addresses_chain_id_address_idx') AS size`;

    const rows = [
      ["inventory addresses", INVENTORY.toLocaleString("en")],
      ["blocks read", String(read)],
      ["transactions per block", `${TXS} + ${DEPOSITS_PER_BLOCK} mints (+ a type-4 of 5 drainer delegations every 10th, an inventory address's own every 20th)`],
      ["blocks per second", `${(read / seconds).toFixed(1)} (aim ${AIM_BLOCKS_PER_SECOND}${read / seconds >= AIM_BLOCKS_PER_SECOND ? ", met" : ", NOT met"})`],
      ["ms per block", (1000 * (seconds / read)).toFixed(2)],
      ["addresses marked compromised", String(compromised)],
      ["deposits detected", `${deposits.map((d) => `${d._count} ${d.token}`).join(", ")} (${DEPOSITS_PER_BLOCK} of each a block)`],
      ["process RSS", `${(rssBefore / 2 ** 20).toFixed(0)} MiB before the catch-up, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after (the firewall holds no inventory: it stays in Postgres)`],
      ["inventory lookup index", `${(Number(index?.size ?? 0n) / 2 ** 20).toFixed(0)} MiB`],
    ] as const;
    for (const [what, figure] of rows) console.log(`  ${what.padEnd(30)} ${figure}`);
  } finally {
    await db.$disconnect();
    await chain.stop();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
