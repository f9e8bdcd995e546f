import { Deposit, DepositAddress, DepositAddressList, DepositList } from "@sweep/api-contract";
import { authorizationBody, type TestPartner } from "@sweep/testkit";
import { Wallet, ZeroAddress, hexlify, randomBytes } from "ethers";
import request from "supertest";
import { BSC_TESTNET, SEPOLIA, createTestPartner, hotWalletIn, randomAddress, startTestGateway, type TestGateway } from "./support";

// A partner's deposit-address inventory: addresses registered in bulk with their authorizations
// ahead of any deposit, and every address a sweep or revocation names; listed newest first.

describe("the deposit-address inventory", () => {
  let gateway: TestGateway;
  let partner: TestPartner;
  let hotWallet: { id: string; address: string; delegate: string };
  beforeAll(async () => {
    gateway = await startTestGateway();
    partner = await createTestPartner(gateway.db);
    // Pending: authorizations can be signed, and registered, before the delegate is deployed.
    hotWallet = await hotWalletIn(gateway, partner, "pending");
  });
  afterAll(() => gateway.close());

  const register = (body: object, who: TestPartner = partner) => request(gateway.app).post("/v1/deposit-addresses").set(who.auth).send(body);
  const list = (query = "", who: TestPartner = partner) => request(gateway.app).get(`/v1/deposit-addresses${query}`).set(who.auth);
  /** A deposit address (a key made without a mnemonic: a thousand in a second) and its authorization of `delegate`. */
  const depositAddress = (fields: { delegate?: string; nonce?: number; chainId?: number } = {}) => {
    const owner = new Wallet(hexlify(randomBytes(32)));
    const authorization = authorizationBody(owner.authorizeSync({ address: fields.delegate ?? hotWallet.delegate, nonce: BigInt(fields.nonce ?? 0), chainId: BigInt(fields.chainId ?? SEPOLIA) }));
    return { owner, item: { address: owner.address, authorization } };
  };
  const registration = (items: object[]) => ({ chain_id: SEPOLIA, hot_wallet: hotWallet.address, addresses: items });
  const inventoryOf = (who: TestPartner = partner) => gateway.db.depositAddress.findMany({ where: { partnerId: who.partnerId }, orderBy: { seq: "asc" } });

  it("registers 1,000 addresses with their authorizations in one request of some 300 KiB, answering each as stored, in order", async () => {
    const addresses = Array.from({ length: 1_000 }, () => depositAddress({ nonce: 5 }));
    const body = registration(addresses.map((a) => ({ ...a.item, address: a.item.address.toLowerCase() })));
    expect(JSON.stringify(body).length).toBeGreaterThan(256 * 1024);

    const res = await register(body);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1_000);
    res.body.items.forEach((item: DepositAddress, i: number) => {
      expect(DepositAddress.parse(item)).toEqual(item);
      expect(item).toEqual({
        chain_id: SEPOLIA,
        address: addresses[i]!.owner.address,
        delegation: "authorized",
        delegate: hotWallet.delegate,
        authorization_nonce: 5,
        recent_deposits: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    });
    const stored = await gateway.db.depositAddress.findFirstOrThrow({ where: { partnerId: partner.partnerId, address: addresses[7]!.owner.address } });
    const sent = addresses[7]!.item.authorization;
    expect(stored.authorization).toEqual({ ...sent, address: hotWallet.delegate, r: sent.r.toLowerCase(), s: sent.s.toLowerCase() });
  }, 30_000);

  it("is idempotent: an address registered again keeps its one entry and holds the newer authorization", async () => {
    const first = depositAddress({ nonce: 0 });
    expect((await register(registration([first.item]))).status).toBe(200);
    const count = (await inventoryOf()).length;
    const newer = authorizationBody(first.owner.authorizeSync({ address: hotWallet.delegate, nonce: 1n, chainId: BigInt(SEPOLIA) }));
    const again = await register(registration([{ address: first.owner.address, authorization: newer }]));
    expect(again.status).toBe(200);
    expect(again.body.items).toEqual([expect.objectContaining({ address: first.owner.address, delegation: "authorized", authorization_nonce: 1 })]);
    expect((await inventoryOf()).length).toBe(count);
  });

  it("keeps an address delegated when its new authorization names the delegate it already runs, and authorized when another", async () => {
    const running = depositAddress();
    await register(registration([running.item]));
    await gateway.db.depositAddress.updateMany({ where: { partnerId: partner.partnerId, address: running.owner.address }, data: { delegation: "delegated" } });
    const same = authorizationBody(running.owner.authorizeSync({ address: hotWallet.delegate, nonce: 1n, chainId: BigInt(SEPOLIA) }));
    expect((await register(registration([{ address: running.owner.address, authorization: same }]))).body.items[0]).toMatchObject({ delegation: "delegated", delegate: hotWallet.delegate });
    expect((await register(registration([{ address: running.owner.address, authorization: same }]))).body.items[0]).not.toHaveProperty("authorization_nonce");

    const other = await hotWalletIn(gateway, partner, "active");
    const moved = authorizationBody(running.owner.authorizeSync({ address: other.delegate, nonce: 2n, chainId: BigInt(SEPOLIA) }));
    const res = await register({ chain_id: SEPOLIA, hot_wallet: other.address, addresses: [{ address: running.owner.address, authorization: moved }] });
    expect(res.body.items[0]).toMatchObject({ delegation: "authorized", delegate: other.delegate, authorization_nonce: 2 });
  });

  describe("refusals: all or nothing, naming the address", () => {
    const valid = () => [depositAddress().item, depositAddress().item, depositAddress().item];

    async function expectRefused(body: object, status: number, code: string, message: RegExp) {
      const before = (await inventoryOf()).length;
      const res = await register(body);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toMatch(message);
      expect((await inventoryOf()).length).toBe(before);
    }

    it("refuses a chain the environment does not serve, and a hot wallet not registered there", async () => {
      await expectRefused({ ...registration(valid()), chain_id: 1 }, 422, "unknown_chain", /^chain_id 1 is not supported here/);
      await expectRefused({ ...registration(valid()), chain_id: BSC_TESTNET }, 422, "unknown_hot_wallet", new RegExp(`^hot wallet ${hotWallet.address} is not registered on chain ${BSC_TESTNET}`));
      await expectRefused({ ...registration(valid()), hot_wallet: randomAddress() }, 422, "unknown_hot_wallet", /is not registered on chain/);
    });

    it("refuses an address given twice, in any letter case", async () => {
      const [a, b] = valid();
      await expectRefused(registration([a!, b!, { ...a!, address: a!.address.toLowerCase() }]), 422, "invalid_address", new RegExp(`^addresses\\.2\\.address ${a!.address} is also addresses\\.0\\.address`));
    });

    it("refuses an authorization that is not the address's, for this chain and delegate, keeping the spec's prefix first", async () => {
      const items = valid();
      const stranger = depositAddress().item.authorization;
      await expectRefused(registration([items[0]!, items[1]!, { ...items[2]!, authorization: stranger }]), 422, "invalid_authorization", new RegExp(`^signed by 0x[0-9a-fA-F]{40}, not the deposit address ${items[2]!.address} \\(addresses\\.2, ${items[2]!.address}\\)$`));
      const elsewhere = depositAddress({ delegate: randomAddress() });
      await expectRefused(registration([items[0]!, elsewhere.item]), 422, "invalid_authorization", /^invalid authorization: delegates to 0x[0-9a-fA-F]{40}, not to this hot wallet's delegate .* \(addresses\.1, /);
      const otherChain = depositAddress({ chainId: BSC_TESTNET });
      await expectRefused(registration([otherChain.item]), 422, "invalid_authorization", /^invalid authorization: chain 97 is not the request's chain 11155111 \(addresses\.0, /);
      await expectRefused(registration([{ ...items[0]!, authorization: { ...items[0]!.authorization, r: "0xzz" } }]), 422, "invalid_authorization", /^addresses\.0\.authorization\.r must be 0x-hex/);
    });

    it("refuses a malformed address, no addresses, more than 1,000, and an unknown field as the spec's codes say", async () => {
      await expectRefused(registration([{ ...valid()[0]!, address: "0x1234" }]), 422, "invalid_address", /^addresses\.0\.address /);
      await expectRefused(registration([{ ...valid()[0]!, address: ZeroAddress }]), 422, "invalid_address", /^addresses\.0\.address /);
      await expectRefused(registration([]), 400, "invalid_json", /^addresses must hold 1 to 1000 addresses/);
      const one = depositAddress().item.authorization;
      const many = Array.from({ length: 1_001 }, (_, i) => ({ address: `0x${(i + 1).toString(16).padStart(40, "0")}`, authorization: one }));
      await expectRefused(registration(many), 400, "invalid_json", /^addresses must hold 1 to 1000 addresses/);
      await expectRefused({ ...registration(valid()), note: "x" }, 400, "invalid_json", /^unknown field note/);
      await expectRefused(registration([{ ...valid()[0]!, label: "x" }]), 400, "invalid_json", /^unknown field addresses\.0\.label/);
    });

    it("takes a body up to 512 KiB here, and keeps the spec's 64 KiB everywhere else", async () => {
      const padded = { ...registration(valid()), pad: "x".repeat(600 * 1024) };
      await expectRefused(padded, 400, "invalid_json", /^request body is over 512 KiB$/);
      const sweep = await request(gateway.app).post("/v1/sweeps").set(partner.auth).send({ chain_id: SEPOLIA, pad: "x".repeat(100 * 1024) });
      expect(sweep.status).toBe(400);
      expect(sweep.body.error).toEqual({ code: "invalid_json", message: "request body is over 64 KiB" });
    });
  });

  it("holds every address a sweep or a revocation names: authorized with a sweep's authorization, unknown without one", async () => {
    const active = await hotWalletIn(gateway, partner, "active");
    const signed = depositAddress({ delegate: active.delegate, nonce: 3 });
    const unsigned = randomAddress();
    const revoking = new Wallet(hexlify(randomBytes(32)));
    const sweep = (account: string, authorization?: object) =>
      request(gateway.app).post("/v1/sweeps").set(partner.auth).send({ chain_id: SEPOLIA, hot_wallet: active.address, account, token: "USDT", ...(authorization ? { authorization } : {}) });
    expect((await sweep(signed.owner.address, signed.item.authorization)).status).toBe(202);
    expect((await sweep(unsigned)).status).toBe(202);
    const revocation = authorizationBody(revoking.authorizeSync({ address: ZeroAddress, nonce: 0n, chainId: BigInt(SEPOLIA) }));
    expect((await request(gateway.app).post("/v1/revocations").set(partner.auth).send({ chain_id: SEPOLIA, account: revoking.address, authorization: revocation })).status).toBe(202);

    const found = async (address: string) => (await list(`?address=${address.toLowerCase()}`)).body.items;
    expect(await found(signed.owner.address)).toEqual([expect.objectContaining({ delegation: "authorized", delegate: active.delegate, authorization_nonce: 3, last_activity_at: expect.any(String) })]);
    expect(await found(unsigned)).toEqual([expect.objectContaining({ address: unsigned, delegation: "unknown", last_activity_at: expect.any(String) })]);
    expect((await found(unsigned))[0]).not.toHaveProperty("delegate");
    expect(await found(revoking.address)).toEqual([expect.objectContaining({ delegation: "unknown", last_activity_at: expect.any(String) })]);

    // A later sweep of the address without an authorization is activity, and keeps what is held.
    const before = (await found(signed.owner.address))[0];
    expect((await sweep(signed.owner.address)).status).toBe(202);
    const after = (await found(signed.owner.address))[0];
    expect(after).toMatchObject({ delegation: "authorized", authorization_nonce: 3 });
    expect(after.last_activity_at >= before.last_activity_at).toBe(true);
  });

  it("lets a sweep without an authorization carry the one held for its address and hot wallet's delegate", async () => {
    const active = await hotWalletIn(gateway, partner, "active");
    const held = depositAddress({ delegate: active.delegate, nonce: 2 });
    expect((await register({ chain_id: SEPOLIA, hot_wallet: active.address, addresses: [held.item] })).status).toBe(200);
    const sweep = (hot: string) => request(gateway.app).post("/v1/sweeps").set(partner.auth).send({ chain_id: SEPOLIA, hot_wallet: hot, account: held.owner.address, token: "USDT" });
    const carried = await sweep(active.address);
    expect(carried.status).toBe(202);
    const sent = held.item.authorization;
    expect((await gateway.db.sweep.findUniqueOrThrow({ where: { id: carried.body.id } })).authorization).toEqual({ ...sent, address: active.delegate, r: sent.r.toLowerCase(), s: sent.s.toLowerCase() });
    // Another hot wallet's delegate is not what the held authorization names: nothing carried.
    const elsewhere = await hotWalletIn(gateway, partner, "active");
    const bare = await sweep(elsewhere.address);
    expect((await gateway.db.sweep.findUniqueOrThrow({ where: { id: bare.body.id } })).authorization).toBeNull();
  });

  it("lists the partner's own addresses newest first, page by page, filtered by chain, delegation and address", async () => {
    const other = await createTestPartner(gateway.db);
    const theirs = await hotWalletIn(gateway, other, "pending");
    const theirAddress = new Wallet(hexlify(randomBytes(32)));
    const theirAuthorization = authorizationBody(theirAddress.authorizeSync({ address: theirs.delegate, nonce: 0n, chainId: BigInt(SEPOLIA) }));
    expect((await register({ chain_id: SEPOLIA, hot_wallet: theirs.address, addresses: [{ address: theirAddress.address, authorization: theirAuthorization }] }, other)).status).toBe(200);

    const all = await inventoryOf();
    // As the ledger marks an address once a sweep of it went through.
    await gateway.db.depositAddress.update({ where: { id: all[3]!.id }, data: { delegation: "delegated" } });
    const pages: DepositAddress[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(DepositAddressList.parse(res.body)).toEqual(res.body);
      pages.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(pages.map((p) => p.address)).toEqual([...all].reverse().map((row) => row.address));

    expect((await list("?delegation=delegated")).body.items.map((item: DepositAddress) => [item.address, item.delegation])).toEqual([[all[3]!.address, "delegated"]]);
    expect((await list(`?chain_id=${BSC_TESTNET}`)).body).toEqual({ items: [], next_cursor: null });
    expect((await list("", other)).body.items.map((item: DepositAddress) => item.address)).toEqual([theirAddress.address]);
    expect((await list(`?address=${theirAddress.address}`)).body).toEqual({ items: [], next_cursor: null });

    for (const [query, parameter] of [
      ["?delegation=stolen", "delegation"],
      ["?limit=201", "limit"],
      ["?address=0x12", "address"],
      ["?cursor=s1", "cursor"],
    ]) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_query");
      expect(res.body.error.message).toContain(parameter);
    }
  });
  describe("its deposits", () => {
    let address: string;
    /** A deposit of the address, as the batcher's block runs store it. */
    const seen = (fields: { status: "pending" | "confirmed"; token: "USDT" | "ETH" }) =>
      gateway.db.deposit.create({
        data: {
          partnerId: partner.partnerId,
          chainId: SEPOLIA,
          address,
          token: fields.token,
          tokenAddress: fields.token === "ETH" ? null : randomAddress(),
          amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
          txHash: hexlify(randomBytes(32)),
          logIndex: fields.token === "ETH" ? -1 : 0,
          blockNumber: 1_000_000n,
          blockHash: hexlify(randomBytes(32)),
          status: fields.status,
          confirmedAt: fields.status === "pending" ? null : new Date(),
        },
      });
    const deposits = (query = "", who: TestPartner = partner) => request(gateway.app).get(`/v1/deposits${query}`).set(who.auth);

    beforeAll(async () => {
      const { item } = depositAddress();
      expect((await register(registration([item]))).status).toBe(200);
      address = item.address;
    });

    it("shows an address's 5 newest deposits on its entry, and lists them all, newest first, page by page", async () => {
      for (let i = 0; i < 7; i++) await seen({ status: i === 6 ? "pending" : "confirmed", token: i === 5 ? "ETH" : "USDT" });
      const all = await gateway.db.deposit.findMany({ where: { partnerId: partner.partnerId, address }, orderBy: { seq: "desc" } });

      const [entry] = (await list(`?address=${address}`)).body.items as DepositAddress[];
      expect(entry!.recent_deposits.map((d) => d.id)).toEqual(all.slice(0, 5).map((d) => d.id));
      const [pending, native] = entry!.recent_deposits;
      expect(Deposit.parse(pending)).toEqual(pending);
      expect(pending).toEqual({
        id: all[0]!.id,
        chain_id: SEPOLIA,
        address,
        token: "USDT",
        token_address: all[0]!.tokenAddress,
        amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        tx_hash: all[0]!.txHash,
        log_index: 0,
        block_number: 1_000_000,
        status: "pending",
        detected_at: expect.any(String),
      });
      expect(native).toMatchObject({ token: "ETH", status: "confirmed", confirmed_at: expect.any(String) });
      expect(native).not.toHaveProperty("token_address");
      expect(native).not.toHaveProperty("log_index");

      const first = await deposits(`?limit=4&address=${address}`);
      expect(first.status).toBe(200);
      expect(DepositList.parse(first.body)).toEqual(first.body);
      const second = await deposits(`?limit=4&address=${address}&cursor=${first.body.next_cursor}`);
      expect([...first.body.items, ...second.body.items].map((d: Deposit) => d.id)).toEqual(all.map((d) => d.id));
      expect(second.body.next_cursor).toBeNull();
    });

    it("filters by status, chain and address, shows no other partner's, and refuses a bad query naming its parameter", async () => {
      expect((await deposits(`?status=pending&address=${address}`)).body.items.map((d: Deposit) => d.status)).toEqual(["pending"]);
      expect((await deposits(`?chain_id=${BSC_TESTNET}`)).body).toEqual({ items: [], next_cursor: null });
      const other = await createTestPartner(gateway.db);
      expect((await deposits("", other)).body).toEqual({ items: [], next_cursor: null });
      for (const [query, parameter] of [
        ["?status=swept", "status"],
        ["?address=0x12", "address"],
        ["?cursor=d1", "cursor"],
        ["?chain_id=5", "chain_id"],
      ]) {
        const res = await deposits(query);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("invalid_query");
        expect(res.body.error.message).toContain(parameter);
      }
    });
  });
});
